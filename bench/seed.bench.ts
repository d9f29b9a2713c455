/**
 * Demo generator benchmark: one generated organisation of 100,000 teachers (with their libraries,
 * library memberships, books and 18 months of analytics) on PostgreSQL (DATABASE_URL) and on
 * embedded PGlite (a temporary folder). Prints the figures recorded in docs/performance.md.
 *
 *   DATABASE_URL=postgres://… npx tsx bench/seed.bench.ts [--teachers N] [--seed S] [--only postgres|pglite] [--keep]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { deleteOrganisation } from '../apps/server/src/db/demo/demo.repository.js';
import { generatedOrganisationId, generatedOrganisationPlan, seedGeneratedOrganisation } from '../apps/server/src/db/demo/generated-organisation.js';

const { values } = parseArgs({
  options: { teachers: { type: 'string', default: '100000' }, seed: { type: 'string', default: '100' }, only: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
const teachers = Number(values.teachers);
const seed = Number(values.seed);
if (!Number.isInteger(teachers) || teachers < 0 || !Number.isInteger(seed) || seed < 0) {
  console.error('--teachers and --seed must be whole numbers');
  process.exit(2);
}

async function measure(label: string, database: Database): Promise<void> {
  await migrateToLatest(database.db);
  const id = generatedOrganisationId(seed);
  const { domain } = generatedOrganisationPlan(seed, teachers, null);
  // A previous run's organisation would make the seed collide; removing it is not measured.
  await deleteOrganisation(database.db, id, domain);
  const started = performance.now();
  const result = await database.db.transaction().execute((trx) => seedGeneratedOrganisation(trx, { seed, teachers }));
  const seconds = (performance.now() - started) / 1000;
  const rows = result.members + result.users + result.libraries + result.memberships + result.books + result.events;
  console.log(`${label}: ${teachers} teachers in ${seconds.toFixed(1)} s (${Math.round(rows / seconds)} rows/s)`);
  console.log(`  rows: ${result.members} members, ${result.users} users, ${result.libraries} libraries, ${result.memberships} library memberships, ${result.books} books, ${result.events} session events`);
  console.log(`  seconds per step: ${Object.entries(result.timings).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)}`).join(', ')}`);
  if (!values.keep) await deleteOrganisation(database.db, id, domain);
}

console.log(`Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
if (values.only !== 'pglite') {
  if (!process.env.DATABASE_URL) {
    console.log('PostgreSQL: skipped (set DATABASE_URL to a database the benchmark may write to)');
  } else {
    const database = await openDatabase({ DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: tmpdir(), DATABASE_POOL_SIZE: 2 });
    try {
      await measure('PostgreSQL', database);
    } finally {
      await database.close();
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
    rmSync(dir, { recursive: true, force: true });
  }
}
