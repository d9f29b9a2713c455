import { sql, type Kysely } from 'kysely';
import type { DB } from './types.js';

export interface RateLimitCount {
  /** Requests counted in the current window, this one included. */
  hits: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/**
 * Counts one request for `key` in one statement: a new window starts when there is none or the last one
 * has ended. The database's clock decides, so every copy of the server agrees.
 */
export async function countRequest(db: Kysely<DB>, key: string, windowMs: number): Promise<RateLimitCount> {
  const window = `${Math.max(1, Math.round(windowMs))} milliseconds`;
  const { rows } = await sql<{ hits: number; ttl: number }>`
    INSERT INTO rate_limits AS r (key, hits, window_start) VALUES (${key}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.window_start + ${window}::interval <= now() THEN 1 ELSE r.hits + 1 END,
      window_start = CASE WHEN r.window_start + ${window}::interval <= now() THEN now() ELSE r.window_start END
    RETURNING hits, greatest(0, ceil(extract(epoch FROM (window_start + ${window}::interval - now())) * 1000))::int AS ttl`.execute(db);
  const row = rows[0];
  return { hits: row?.hits ?? 1, ttl: row?.ttl ?? windowMs };
}

/** The current count for `key` without counting a request (0 when its window has ended). */
export async function readCount(db: Kysely<DB>, key: string, windowMs: number): Promise<RateLimitCount> {
  const window = `${Math.max(1, Math.round(windowMs))} milliseconds`;
  const { rows } = await sql<{ hits: number; ttl: number }>`
    SELECT hits, greatest(0, ceil(extract(epoch FROM (window_start + ${window}::interval - now())) * 1000))::int AS ttl
    FROM rate_limits WHERE key = ${key} AND window_start + ${window}::interval > now()`.execute(db);
  const row = rows[0];
  return row ? { hits: row.hits, ttl: row.ttl } : { hits: 0, ttl: 0 };
}

/** Drops the counters of windows that ended before `olderThanMs` ago. */
export async function purgeEnded(db: Kysely<DB>, olderThanMs: number): Promise<number> {
  const result = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', sql<Date>`now() - ${`${Math.round(olderThanMs)} milliseconds`}::interval`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Gives back one counted request for `key` (a sign-in that succeeded is not a failure). */
export async function refundRequest(db: Kysely<DB>, key: string): Promise<void> {
  await sql`UPDATE rate_limits SET hits = greatest(0, hits - 1) WHERE key = ${key}`.execute(db);
}
