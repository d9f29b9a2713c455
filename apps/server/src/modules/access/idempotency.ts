import { IDEMPOTENCY_HEADER } from '@quire/core';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from './actor.js';

/** How long a key is remembered: a replay within this window is refused. */
const IDEMPOTENCY_WINDOW_SECONDS = 600;
const MAX_KEY_LENGTH = 200;

/** The request's Idempotency-Key, or null when it has none. */
function keyOf(request: FastifyRequest): string | null {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return null;
  const key = (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
  if (key === '' || key.length > MAX_KEY_LENGTH) throw appError('bad_idempotency_key');
  return key;
}

/**
 * Runs `action` once per (actor, Idempotency-Key) within the window: an identical replay (a double click, a
 * retried request) is refused with 409 `duplicate_request` and changes nothing. A request without the header
 * runs as before. When the action fails the key is released, so the same action may be retried.
 */
export async function withIdempotency<T>(db: Kysely<DB>, request: FastifyRequest, actor: Actor, action: () => Promise<T>): Promise<T> {
  const key = keyOf(request);
  if (key === null) return action();
  const claimed = await sql<{ key: string }>`
    INSERT INTO idempotency_keys (actor_user_id, key, expires_at)
    VALUES (${actor.userId}, ${key}, now() + make_interval(secs => ${IDEMPOTENCY_WINDOW_SECONDS}))
    ON CONFLICT (actor_user_id, key) DO UPDATE SET expires_at = EXCLUDED.expires_at, created_at = now()
      WHERE idempotency_keys.expires_at < now()
    RETURNING key`.execute(db);
  if (claimed.rows.length === 0) throw appError('duplicate_request');
  try {
    return await action();
  } catch (error) {
    await db.deleteFrom('idempotency_keys').where('actor_user_id', '=', actor.userId).where('key', '=', key).execute();
    throw error;
  } finally {
    // Old keys of this actor go as they come: the table stays small without a job.
    await db.deleteFrom('idempotency_keys').where('actor_user_id', '=', actor.userId).where('expires_at', '<', sql<Date>`now()`).execute();
  }
}
