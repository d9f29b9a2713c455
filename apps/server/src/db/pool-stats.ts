import type { Database } from './client.js';

/** The database's connections at one moment (docs/operations.md, "Metrics"). */
export interface PoolStats {
  /** Connections the pool may open: DATABASE_POOL_SIZE, or 1 for PGlite. */
  size: number;
  /** Connections running a statement or held by a transaction. */
  inUse: number;
  /** Open connections nobody holds. */
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
}

/**
 * Returns a reader of the database's pool. PostgreSQL: the pg Pool's own counts (the app's queries and pg-boss's
 * share it). PGlite: its one session (db/pglite-session.ts), in use while a caller holds it (a statement, a
 * transaction, a block of pg-boss's), the other callers waiting.
 */
export function watchPool(database: Database): () => PoolStats {
  const pool = database.pool;
  if (pool) {
    const size = pool.options.max ?? 10;
    return () => ({ size, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount });
  }
  const session = database.session;
  return () => {
    const { inUse, waiting } = session ? session.counts() : { inUse: 0, waiting: 0 };
    return { size: 1, inUse, idle: 1 - inUse, waiting };
  };
}
