import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { loadEnv, type Env } from '../src/env.js';
import { adminQuery, databaseUrl } from './database-template.js';
import { recordStatement } from './tenant-statements.js';

/**
 * Test harness: the real app on a fresh, migrated database of its own.
 *
 * - Every database is a copy of one template that ./global-setup.ts migrates once per run (schema and
 *   pg-boss's tables, no rows; see ./database-template.ts):
 *   - default: in-memory PGlite loaded from the template's data-directory tarball (~1 s);
 *   - with TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5433/postgres, an admin URL): a new
 *     database `quire_t_<random>` made by `CREATE DATABASE ... TEMPLATE`, dropped by `close()`.
 * - Still, share ONE app per test file (`beforeAll(async () => ({ app, close } = await buildTestApp()))`,
 *   `afterAll(() => close())`) and give each test its own rows through the factories in ./factories.ts.
 * - Server test files share one worker process (`isolate: false` in the root vitest.config.ts): no
 *   module-level state in src, no global stubs left behind, and close what a file opens.
 * - PUBLIC_URL is http://localhost:3100: state-changing requests need `origin: 'http://localhost:3100'`
 *   (the identity module's Origin check).
 * - Mail: `app.mail.send(...)` writes a mail_outbox row and queues a job; the job worker runs in tests too.
 *   Call `await app.mail.waitForIdle()` before asserting on what was sent (status 'logged' without SMTP_URL).
 */
export interface TestApp {
  app: FastifyInstance;
  database: Database;
  env: Env;
  close(): Promise<void>;
}

/** The environment tests run with; overrides win. */
export function testEnv(overrides: Partial<Env> = {}): Env {
  const base = loadEnv({
    NODE_ENV: 'test',
    // scrypt at N = 2^10 instead of 2^17: the suites sign in hundreds of times (env.ts; refused in production).
    PASSWORD_SCRYPT_LOG2_N: '10',
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    PUBLIC_URL: 'http://localhost:3100',
    // The suites act as provider staff without a second step; two-step tests turn the rule on (two-step.test.ts).
    PROVIDER_STAFF_TWO_STEP: 'off',
  });
  return { ...base, ...overrides };
}

/**
 * A fresh migrated database (no app), copied from the run's template (./global-setup.ts): in-memory
 * PGlite loaded from the template's tarball, or with TEST_DATABASE_URL a new PostgreSQL database made
 * with `CREATE DATABASE ... TEMPLATE`. `url` is that database's connection string (undefined for PGlite).
 */
export async function openTestDatabase(env: Env = testEnv()): Promise<{ database: Database; url?: string }> {
  const template = inject('databaseTemplate');
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!template) {
    throw new Error(
      'No test database template: a file listed in SERVER_FILES_WITHOUT_DATABASE (root vitest.config.ts) opens a database, or the tests were not run through the root vitest.config.ts',
    );
  }
  if (!adminUrl) {
    if (template.kind !== 'pglite') throw new Error('The test database template is PostgreSQL but TEST_DATABASE_URL is not set');
    const database = await openDatabase({
      ...env,
      DATABASE_URL: undefined,
      inMemory: true,
      loadDataDir: await pgliteTemplate(template.tarball),
      onStatement: recordStatement,
    });
    return { database };
  }
  if (template.kind !== 'postgres') throw new Error('The test database template is PGlite but TEST_DATABASE_URL is set');
  const name = `quire_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template.name}`);
  const url = databaseUrl(adminUrl, name);
  let opened: Database;
  try {
    opened = await openDatabase({ ...env, DATABASE_URL: url, onStatement: recordStatement });
  } catch (error) {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    throw error;
  }
  const database: Database = {
    ...opened,
    close: async () => {
      // Tolerates a database a test already closed (e.g. to see /readyz fail).
      await opened.close().catch(() => undefined);
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
  return { database, url };
}

/**
 * A fresh database for the tests of one file, for tests that need the SQL but not the app: opened before the
 * first test and handed to `opened`, closed after the last.
 */
export function useTestDatabase(opened: (database: Database) => void): void {
  let database: Database | undefined;
  beforeAll(async () => {
    ({ database } = await openTestDatabase());
    opened(database);
  });
  afterAll(() => database?.close());
}

/** The template's tarball, read once per worker (PGlite copies it into its own file system). */
let tarball: { file: string; blob: Promise<Blob> } | undefined;
function pgliteTemplate(file: string): Promise<Blob> {
  if (tarball?.file !== file) tarball = { file, blob: readFile(file).then((bytes) => new Blob([bytes])) };
  return tarball.blob;
}

export interface TestAppOptions {
  /** Fastify logger options, e.g. `{ level: 'info', stream }` to assert on log lines; default off. */
  logger?: FastifyServerOptions['logger'];
  /** Runs after the app is built and before `ready()`: add test-only routes or hooks here. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
}

/** Builds the real app (logger off) on a fresh database and waits until it is ready. */
export async function buildTestApp(overrides: Partial<Env> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const opened = await openTestDatabase(testEnv(overrides));
  const { database } = opened;
  // The env says which database the app really runs on.
  const env = testEnv({ ...overrides, DATABASE_URL: opened.url });
  let app: FastifyInstance;
  try {
    app = await buildApp({ env, database, logger: options.logger ?? false });
    await options.beforeReady?.(app);
    await app.ready();
  } catch (error) {
    await database.close();
    throw error;
  }
  return {
    app,
    database,
    env,
    close: async () => {
      await app.close();
      await database.close().catch(() => undefined);
    },
  };
}
