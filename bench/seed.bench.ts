/**
 * Demo generator benchmark: one generated organisation of 100,000 teachers (with their libraries,
 * library memberships, books and 18 months of analytics) on PostgreSQL and on embedded PGlite.
 * Prints the figures recorded in docs/performance.md ("Demo generator").
 *
 *   DATABASE_URL=postgres://user@host:5432/postgres npm run seed -w bench -- [--teachers N] [--seed S] [--only postgres|pglite] [--keep]
 *
 * PostgreSQL: the benchmark creates a scratch database on DATABASE_URL's server (the user needs
 * CREATEDB) and drops it afterwards. PGlite: a temporary folder, removed afterwards. --keep keeps both.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import type { DB } from '../apps/server/src/db/types.js';
import { adminQuery } from './load.js';
import { seedGeneratedOrganisation } from '../apps/server/src/db/demo/generated-organisation.js';

const { values } = parseArgs({
  options: { teachers: { type: 'string', default: '100000' }, seed: { type: 'string', default: '100' }, only: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
const teachers = Number(values.teachers);
const seed = Number(values.seed);
if (!Number.isInteger(teachers) || teachers < 0 || !Number.isInteger(seed) || seed < 0 || !['postgres', 'pglite', undefined].includes(values.only)) {
  console.error('Usage: seed.bench.ts [--teachers N] [--seed S] [--only postgres|pglite] [--keep]');
  process.exit(2);
}

async function measure(label: string, database: Database): Promise<void> {
  await migrateToLatest(database.db);
  const started = performance.now();
  const nodeBefore = process.cpuUsage();
  let serverCpu: number | null = null;
  const result = await database.db.transaction().execute(async (trx) => {
    const pid = database.kind === 'postgres' ? await backendPid(trx) : null;
    const before = pid === null ? null : processCpuSeconds(pid);
    const seeded = await seedGeneratedOrganisation(trx, { seed, teachers });
    const after = pid === null ? null : processCpuSeconds(pid);
    if (before !== null && after !== null) serverCpu = after - before;
    return seeded;
  });
  const seconds = (performance.now() - started) / 1000;
  const nodeCpu = (({ user, system }) => (user + system) / 1e6)(process.cpuUsage(nodeBefore));
  const rows = result.members + result.users + result.libraries + result.memberships + result.books + result.events;
  console.log(`${label}: ${teachers} teachers in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s)`);
  // On a shared machine the wall time depends on the neighbours; CPU time is what the seeding itself costs.
  console.log(`  CPU seconds: Node ${nodeCpu.toFixed(1)}${serverCpu === null ? '' : `, PostgreSQL backend ${(serverCpu as number).toFixed(1)}`}`);
  console.log(`  rows: ${result.members} members, ${result.users} users, ${result.libraries} libraries, ${result.memberships} library memberships, ${result.books} books, ${result.events} session events`);
  console.log(`  seconds per step: ${Object.entries(result.timings).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)}`).join(', ')}`);
}

async function backendPid(trx: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
  return Number(rows[0]?.pid);
}

/** CPU seconds a local process has used (Linux /proc; null when the server runs elsewhere). */
function processCpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat (12 and 13 after the command name), in 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}


console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
if (values.only !== 'pglite') {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log('PostgreSQL: skipped (set DATABASE_URL to a server where this user may create a database)');
  } else {
    const name = `quire_seed_bench_${randomBytes(4).toString('hex')}`;
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const scratch = new URL(url);
    scratch.pathname = `/${name}`;
    const database = await openDatabase({ DATABASE_URL: scratch.toString(), DATA_DIR: tmpdir(), DATABASE_POOL_SIZE: 2 });
    try {
      await measure('PostgreSQL', database);
    } finally {
      await database.close();
      if (values.keep) console.log(`  kept database ${name}`);
      else await adminQuery(url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  }
}
if (values.only !== 'postgres') {
  const dir = mkdtempSync(join(tmpdir(), 'quire-seed-bench-'));
  const database = await openDatabase({ DATA_DIR: dir, DATABASE_POOL_SIZE: 1 });
  try {
    await measure('PGlite', database);
  } finally {
    await database.close();
    if (values.keep) console.log(`  kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
