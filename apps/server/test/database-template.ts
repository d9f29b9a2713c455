import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { startJobQueue } from '../src/jobs/boss.js';
import type { Env } from '../src/env.js';
import { partitionTenantTables, type PartitionedSchema } from './partitioned-schema.js';

/**
 * Where the migrated template of every test database is: a PGlite data-directory tarball, or a
 * PostgreSQL database on the TEST_DATABASE_URL server. Made once per run by ./global-setup.ts.
 */
export type DatabaseTemplate = { kind: 'pglite'; tarball: string } | { kind: 'postgres'; name: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by ./global-setup.ts; `openTestDatabase()` copies it. */
    databaseTemplate?: DatabaseTemplate;
    /** Set by ./global-setup.ts: the tables with an `organisation_id` column (./tenant-statements.ts). */
    tenantTables?: string[];
    /** Set by ./global-setup.ts in the partitioned-schema mode (QUIRE_TEST_PARTITIONED=1): what ./partitioned-schema.ts did. */
    partitionedSchema?: PartitionedSchema;
  }
}

/**
 * Makes the template: an empty database, migrated to the latest version, with pg-boss's schema (what
 * `startJobQueue` creates on first start). Nothing that depends on the env of a test goes in: no rows,
 * no queues. `drop()` removes it.
 */
export async function createDatabaseTemplate(
  env: Env,
  adminUrl: string | undefined,
): Promise<{ template: DatabaseTemplate; tenantTables: string[]; partitionedSchema?: PartitionedSchema; drop(): Promise<void> }> {
  if (!adminUrl) {
    const database = await openDatabase({ ...env, DATABASE_URL: undefined, inMemory: true });
    let tarball: Blob;
    let prepared: Prepared;
    try {
      prepared = await prepare(database, env);
      // Uncompressed: a copy then opens without gunzipping ~40 MB.
      tarball = await database.pglite!.dumpDataDir('none');
    } finally {
      await database.close();
    }
    removeAbandonedTarballs();
    // One folder per vitest process; a new name per template, since workers cache a tarball by its path.
    const dir = join(tmpdir(), `${TARBALL_DIR_PREFIX}${process.pid}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${randomBytes(6).toString('hex')}.tar`);
    writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
    return {
      template: { kind: 'pglite', tarball: file },
      ...prepared,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `quire_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const drop = async () => void (await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  let prepared: Prepared;
  try {
    // All connections must be closed before a CREATE DATABASE may copy it: `close()` ends the pool.
    const database = await openDatabase({ ...env, DATABASE_URL: databaseUrl(adminUrl, name) });
    try {
      prepared = await prepare(database, env);
    } finally {
      await database.close();
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return { template: { kind: 'postgres', name }, ...prepared, drop };
}

const TARBALL_DIR_PREFIX = 'quire-test-template-';

/** A run that was killed never dropped its tarball (~40 MB): remove those whose process is gone. */
function removeAbandonedTarballs(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.startsWith(TARBALL_DIR_PREFIX) ? name.slice(TARBALL_DIR_PREFIX.length) : NaN);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

interface Prepared {
  tenantTables: string[];
  partitionedSchema?: PartitionedSchema;
}

/**
 * Migrates the template and makes pg-boss's schema; answers the tenant tables (those with an `organisation_id` column).
 * With QUIRE_TEST_PARTITIONED=1, then remakes every tenant table partitioned by organisation (./partitioned-schema.ts).
 */
async function prepare(database: Database, env: Env): Promise<Prepared> {
  await migrateToLatest(database.db);
  const errors: string[] = [];
  const jobs = await startJobQueue(database, env, { log: (line, error) => errors.push(`${line}: ${String(error)}`) });
  await jobs.stop();
  if (errors.length > 0) throw new Error(`Cannot prepare the test database template: ${errors.join('; ')}`);
  const { rows } = await sql<{ table_name: string }>`
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = 'public' AND c.column_name = 'organisation_id' ORDER BY 1`.execute(database.db);
  const tenantTables = rows.map((row) => row.table_name);
  if (process.env.QUIRE_TEST_PARTITIONED !== '1') return { tenantTables };
  return { tenantTables, partitionedSchema: await partitionTenantTables(database.db) };
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on the admin URL (CREATE / DROP DATABASE), on a connection of its own; the tests and benchmarks share it. */
export async function adminQuery(adminUrl: string, statement: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(statement, params);
  } finally {
    await client.end();
  }
}
