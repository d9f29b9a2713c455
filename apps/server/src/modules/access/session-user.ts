import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

/**
 * The user of a live session, by the session's token: not expired, not ended (sign-out and a password reset delete
 * the row). The one rule for which sessions open anything: the actor hook runs it on its own
 * (identity/session-actor.ts), the Teachers page inside its own statement (org-access.ts, sessionOrgAccessRow).
 */
export function liveSessionUser(db: Kysely<DB> | Transaction<DB>, token: string, now: Date = new Date()) {
  return db
    .selectFrom('session as s')
    .innerJoin('user as u', 'u.id', 's.userId')
    .select(['u.id', 'u.email', 'u.name', 'u.emailVerified', 's.id as sessionId'])
    .where('s.token', '=', token)
    .where('s.expiresAt', '>', now);
}
