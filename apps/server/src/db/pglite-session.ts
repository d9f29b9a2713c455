import type { PGlite } from '@electric-sql/pglite';
import { Mutex, withTimeout, type MutexInterface } from 'async-mutex';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * The embedded database's one session, shared by every caller: Kysely (requests, jobs' handlers, the identity
 * library) and pg-boss. PGlite runs one statement at a time, but a transaction is a run of statements: had each
 * statement queued on its own, a statement from another request would land inside an open transaction, and that
 * transaction's COMMIT or ROLLBACK (or pg-boss's ROLLBACK after a failed statement of its own) would take the
 * other request's writes with it, or commit half a transaction. So a caller holds the session from its first
 * statement to its last: a single statement, a whole transaction, or one of pg-boss's statement blocks. This is what
 * Kysely's own PGlite dialect does from Kysely 0.29 (a single-connection driver behind a connection mutex); the project
 * stays on Kysely 0.28 with the identity library, so it is written here.
 *
 * A caller that waits for the session longer than its wait (db/client.ts) is refused with {@link DatabaseBusyError},
 * as PostgreSQL's pool refuses past DATABASE_POOL_TIMEOUT_MS: the request is answered 503 'server_busy' and may be tried
 * again, instead of queueing without end. That also turns a statement sent outside its transaction while the transaction waits for
 * it (a deadlock on one session; PostgreSQL would take a second connection) into an error rather than a hang.
 */
export class PgliteSession {
  readonly #lock: MutexInterface;
  /** Callers holding the session or waiting for it (the pool gauges, db/pool-stats.ts). */
  #entered = 0;

  constructor(
    readonly pglite: PGlite,
    waitMs: number,
  ) {
    this.#lock = withTimeout(new Mutex(), waitMs, new DatabaseBusyError(waitMs));
  }

  /** Waits for the session; the caller must call the returned release once done with it. */
  async acquire(): Promise<() => void> {
    this.#entered += 1;
    try {
      const release = await this.#lock.acquire();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        this.#entered -= 1;
        release();
      };
    } catch (error) {
      this.#entered -= 1;
      throw error;
    }
  }

  /** Runs `work` while holding the session. */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Callers holding the session (0 or 1) and waiting for it. */
  counts(): { inUse: number; waiting: number } {
    const inUse = this.#lock.isLocked() ? 1 : 0;
    return { inUse, waiting: Math.max(0, this.#entered - inUse) };
  }
}

/** No caller got the embedded database's session within the pool timeout. */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
  constructor(waitMs: number) {
    super(`The embedded database stayed busy for ${waitMs} ms`);
  }
}

/** Kysely's dialect over the shared session. */
export function pgliteDialect(session: PgliteSession): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgliteDriver(session),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

class PgliteDriver implements Driver {
  constructor(readonly session: PgliteSession) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PgliteConnection(this.session.pglite, await this.session.acquire());
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PgliteConnection).release();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const access = settings.accessMode ? ` ${settings.accessMode}` : '';
    await connection.executeQuery(CompiledQuery.raw(`start transaction${isolation}${access}`));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  /** The instance is closed by its owner (db/client.ts), after Kysely. */
  async destroy(): Promise<void> {}
}

class PgliteConnection implements DatabaseConnection {
  constructor(
    private readonly pglite: PGlite,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, affectedRows } = await this.pglite.query<R>(query.sql, [...query.parameters], { rowMode: 'object' });
    return { rows, ...(affectedRows != null ? { numAffectedRows: BigInt(affectedRows) } : {}) };
  }

  // eslint-disable-next-line require-yield -- PGlite has no cursor for a client: a caller that streams reads in batches instead.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The embedded database does not stream query results');
  }
}
