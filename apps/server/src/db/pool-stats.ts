import type { PGlite } from '@electric-sql/pglite';
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
 * share it). PGlite runs one statement at a time behind a queue of its own; it exposes no count of that queue, so
 * this counts what passes through it (`_runExclusiveTransaction`, which every query, exec and transaction of PGlite
 * enters): one in use while a statement runs, the rest waiting. Call it once per database, before requests start.
 */
export function watchPool(database: Database): () => PoolStats {
  const pool = database.pool;
  if (pool) {
    const size = pool.options.max ?? 10;
    return () => ({ size, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount });
  }
  const counts = database.pglite ? countPgliteQueue(database.pglite) : undefined;
  return () => {
    const inUse = counts ? Math.min(1, counts.entered) : 0;
    return { size: 1, inUse, idle: 1 - inUse, waiting: counts ? counts.entered - inUse : 0 };
  };
}

/** Counts the callers inside PGlite's exclusive section (running or queued for it). */
function countPgliteQueue(pglite: PGlite): { entered: number } | undefined {
  const counts = { entered: 0 };
  // PGlite's queue is not public API: if a release renames it, the gauges read 0 and nothing else changes.
  if (typeof pglite._runExclusiveTransaction !== 'function') return undefined;
  const run = pglite._runExclusiveTransaction.bind(pglite);
  pglite._runExclusiveTransaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    counts.entered += 1;
    try {
      return await run(fn);
    } finally {
      counts.entered -= 1;
    }
  };
  return counts;
}
