/**
 * Three copies of the server behind HAProxy on one PostgreSQL database, for trying things by hand
 * (docs/scale-out.md): `TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run proxy-cluster -w bench`.
 * A fresh database is made from that admin URL (DATABASE_URL instead: that database as it is), the demo is seeded,
 * and the cluster runs until Ctrl-C, which stops every copy and the proxy and drops the fresh database.
 * Ports come from E2E_PORT_RANGE (default 3300-3399).
 */
import { startProxyCluster } from '../e2e/support/proxy-cluster.js';
import { createTestDatabase } from '../e2e/support/test-database.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const fixedUrl = process.env.DATABASE_URL;
if (!adminUrl && !fixedUrl) {
  process.stderr.write('proxy-cluster: set TEST_DATABASE_URL (a PostgreSQL admin URL) or DATABASE_URL\n');
  process.exit(2);
}
const database = fixedUrl ? undefined : await createTestDatabase(adminUrl ?? '');
const cluster = await startProxyCluster({ databaseUrl: fixedUrl ?? database?.url ?? '', copies: Number(process.env.COPIES || 3) });
process.stdout.write(`Quire behind HAProxy at ${cluster.url}\n`);
for (const copy of cluster.copies) process.stdout.write(`  ${copy.name} at ${copy.url}, log ${copy.logFile}\n`);
process.stdout.write(`HAProxy configuration: ${cluster.folder}/haproxy.cfg. Ctrl-C stops everything.\n`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  await database?.drop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
