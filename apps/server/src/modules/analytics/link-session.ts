import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import { liveSessionAccessLevel } from '../access/org-access.js';

/** How long a session found alive and admin is believed without asking again (per server copy). */
const LINK_SESSION_KEPT_MS = 10_000;

/**
 * The second half of a signed analytics link's check: the session that asked for it still lives and its user is
 * still an admin of the organisation. One statement over two primary keys; a yes is kept LINK_SESSION_KEPT_MS, so
 * the twenty links a dashboard opens at once cost one, and the link does not depend on the request's own session,
 * which signed routes do not read (config.signedLink). A session signed out or an access removed closes its links within that time.
 */
export function createLinkSessionCheck(db: Kysely<DB>, keptMs = LINK_SESSION_KEPT_MS, keptMax = 10_000) {
  const alive = new LRUCache<string, true>({ max: keptMax, ttl: keptMs });
  return async (sessionId: string, organisationId: string): Promise<void> => {
    const key = `${sessionId}\n${organisationId}`;
    if (alive.has(key)) return;
    if (!sessionId || (await liveSessionAccessLevel(db, sessionId, organisationId)) !== 'admin') {
      throw appError('signed_url_session_ended');
    }
    alive.set(key, true);
  };
}
