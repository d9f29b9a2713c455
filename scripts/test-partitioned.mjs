#!/usr/bin/env node
// `npm run test:partitioned`: the server's integration tests on PostgreSQL with every tenant table hash-partitioned by
// organisation_id (apps/server/test/partitioned-schema.ts; docs/scale-out.md). Needs TEST_DATABASE_URL, an admin URL of
// a PostgreSQL server the tests may create databases on. Arguments go to Vitest (file names, --maxWorkers, ...).
// Not part of CI: run it after a migration that adds or changes a tenant table.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (!process.env.TEST_DATABASE_URL) {
  process.stderr.write('TEST_DATABASE_URL is not set: the partitioned run needs a PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/postgres)\n');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'server', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, QUIRE_TEST_PARTITIONED: '1' },
});
process.exit(run.status ?? 1);
