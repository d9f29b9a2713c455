import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { loadEnv, type Env } from '../src/env.js';

/**
 * Test harness: the real app on a fresh, migrated database.
 *
 * - Default: in-memory PGlite. It opens in ~3-4 s, so share ONE app per test file
 *   (`beforeAll(async () => ({ app, close } = await buildTestApp()))`, `afterAll(() => close())`)
 *   and give each test its own rows through the factories in ./factories.ts.
 * - With TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5433/postgres, an admin URL), every call
 *   creates a brand-new PostgreSQL database `quire_t_<random>` and `close()` drops it.
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
    LOG_LEVEL: 'silent',
    DEMO_SEED: 'false',
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    PUBLIC_URL: 'http://localhost:3100',
  });
  return { ...base, ...overrides };
}

/**
 * A fresh migrated database (no app): PGlite in memory, or a new PostgreSQL database when
 * TEST_DATABASE_URL is set. `url` is that database's connection string (undefined for PGlite).
 */
export async function openTestDatabase(env: Env = testEnv()): Promise<{ database: Database; url?: string }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const database = await openDatabase({ ...env, DATABASE_URL: undefined, inMemory: true });
    await migrateToLatest(database.db);
    return { database };
  }
  const name = `quire_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const opened = await openDatabase({ ...env, DATABASE_URL: url.toString() });
  const database: Database = {
    ...opened,
    close: async () => {
      // Tolerates a database a test already closed (e.g. to see /readyz fail).
      await opened.close().catch(() => undefined);
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
  try {
    await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { database, url: url.toString() };
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

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
