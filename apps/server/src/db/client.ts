import { mkdirSync, accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { Kysely, PostgresDialect, sql, type KyselyConfig, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Env } from '../env.js';
import type { DB } from './types.js';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import { DatabaseBusyError, PgliteSession, pgliteDialect } from './pglite-session.js';
import { preparedName } from './statement-shapes.js';

/** The database Quire talks to: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
export interface Database {
  db: Kysely<DB>;
  kind: 'pglite' | 'postgres';
  /** The PGlite instance (embedded mode only). Reach it through `session`, which keeps transactions whole. */
  pglite?: PGlite;
  /** The embedded database's one session, held by one caller at a time: Kysely and pg-boss (embedded mode only). */
  session?: PgliteSession;
  /** The pg pool (PostgreSQL mode only). */
  pool?: Pool;
  close(): Promise<void>;
}

export class DatabaseStartError extends Error {
  override name = 'DatabaseStartError';
}

/**
 * Whether an error is pg-pool's refusal when no connection of the pool became free within its connectionTimeoutMillis
 * (DATABASE_POOL_TIMEOUT_MS): the server is busy, not broken, and the request may be tried again shortly. Exactly this
 * error, matched by pg-pool's own text (it has no code): a connection PostgreSQL refuses or ends is another error. The
 * embedded database refuses the same way when its one session stays busy as long (db/pglite-session.ts).
 */
export function isPoolTimeout(error: unknown): boolean {
  return (error instanceof Error && error.message === 'timeout exceeded when trying to connect') || error instanceof DatabaseBusyError;
}

type DbOptions = Pick<Env, 'DATABASE_URL' | 'DATA_DIR' | 'DATABASE_POOL_SIZE'> & Partial<Pick<Env, 'DATABASE_POOL_TIMEOUT_MS'>> & {
  /** PGlite only: keep the database in memory (tests). */
  inMemory?: boolean;
  /** PGlite only: start from this data-directory tarball (`dumpDataDir()`) instead of an empty cluster (tests). */
  loadDataDir?: Blob;
  /** Called with the SQL of every statement sent through Kysely, in transactions too (the tests' tenant-filter check). */
  onStatement?: (sql: string) => void;
};

/** Kysely's log hook for `onStatement`: every statement run, whether it succeeded or failed. */
function statementLog(onStatement: DbOptions['onStatement']): KyselyConfig['log'] {
  return onStatement ? (event) => onStatement(event.query.sql) : undefined;
}

/** Opens the database and checks it answers; throws DatabaseStartError with one line saying what to fix. */
export async function openDatabase(options: DbOptions): Promise<Database> {
  return options.DATABASE_URL
    ? openPostgres(options.DATABASE_URL, options.DATABASE_POOL_SIZE, options.DATABASE_POOL_TIMEOUT_MS ?? 5000, options.onStatement)
    : openPglite(options);
}

async function openPostgres(url: string, poolSize: number, poolTimeoutMs: number, onStatement: DbOptions['onStatement']): Promise<Database> {
  const pg = await import('pg');
  // Dates as strings would leak the driver into every presenter; keep Date objects, but bigint counts as numbers.
  pg.default.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.default.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: poolTimeoutMs });
  // An idle connection the server ends (restart, failover, an administrator) is reported here; without a
  // listener Node would crash the process. The pool drops that client and opens a new one when next needed.
  pool.on('error', (error) => {
    process.emitWarning(`PostgreSQL closed an idle connection: ${error.message}`);
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }), log: statementLog(onStatement) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    const host = safeHost(url);
    throw new DatabaseStartError(
      `Cannot reach the PostgreSQL server at ${host} (${(error as Error).message}). Check DATABASE_URL and that the server is running.`,
    );
  }
  return { db, kind: 'postgres', pool, close: () => db.destroy() };
}

/**
 * The pool as Kysely uses it: a statement compiled once per shape (db/statement-shapes.ts) goes as a named prepared
 * statement, which each connection parses once; any other statement as before.
 */
function preparingPool(pool: Pool): PostgresPool {
  const wrapped = new WeakMap<PoolClient, PostgresPoolClient>();
  const wrap = (client: PoolClient): PostgresPoolClient => ({
    query: ((textOrCursor: unknown, values?: unknown[]): unknown => {
      const name = typeof textOrCursor === 'string' ? preparedName(textOrCursor) : undefined;
      if (name) return client.query({ name, text: textOrCursor as string, values });
      return client.query(textOrCursor as never, values as never);
    }) as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    connect: async () => {
      const client = await pool.connect();
      let kysely = wrapped.get(client);
      if (!kysely) wrapped.set(client, (kysely = wrap(client)));
      return kysely;
    },
    end: () => pool.end(),
  };
}

/**
 * How long a caller waits for the embedded database's one session before it is answered 503 'server_busy'. Longer than
 * PostgreSQL's pool timeout: with one session for everyone, a page that sends a dozen calls at once queues them all
 * behind each other on a busy machine, which is slow but not a fault. Past this, something holds the session wrongly.
 */
const PGLITE_SESSION_WAIT_MS = 30_000;

async function openPglite(options: DbOptions): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let dataDir: string | undefined;
  if (!options.inMemory) {
    dataDir = resolve(options.DATA_DIR, 'pglite');
    try {
      mkdirSync(dataDir, { recursive: true });
      accessSync(dataDir, constants.W_OK);
    } catch {
      throw new DatabaseStartError(
        `DATA_DIR is not writable: cannot create ${dataDir}. Set DATA_DIR to a folder this user can write.`,
      );
    }
  }
  let pglite: PGlite;
  try {
    // int8 (counts, bigserial ids) as numbers, as with PostgreSQL below.
    pglite = await PGlite.create(dataDir, {
      extensions: { pg_trgm },
      parsers: { 20: (v: string) => Number(v) },
      loadDataDir: options.loadDataDir,
    });
  } catch (error) {
    throw new DatabaseStartError(
      `Cannot open the embedded database in ${dataDir ?? 'memory'} (${(error as Error).message}). Is another Quire using the same DATA_DIR?`,
    );
  }
  const session = new PgliteSession(pglite, PGLITE_SESSION_WAIT_MS);
  const db = new Kysely<DB>({ dialect: pgliteDialect(session), log: statementLog(options.onStatement) });
  return {
    db,
    kind: 'pglite',
    pglite,
    session,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

function safeHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}
