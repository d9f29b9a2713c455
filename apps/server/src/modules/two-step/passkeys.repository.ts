import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Passkeys' SQL (docs/identity.md "Passkeys"): credentials and the challenges handed out for them. */

export type ChallengePurpose = 'register' | 'second-step' | 'sign-in';

export function listPasskeys(db: Db, userId: string) {
  return db
    .selectFrom('two_step_passkeys')
    .select(['credential_id', 'name', 'created_at', 'last_used_at', 'transports'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('credential_id')
    .execute();
}

export function findPasskey(db: Db, credentialId: string, userId?: string) {
  let query = db.selectFrom('two_step_passkeys').selectAll().where('credential_id', '=', credentialId);
  if (userId) query = query.where('user_id', '=', userId);
  return query.executeTakeFirst();
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_step_passkeys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Adds a passkey; false when that credential is already registered (to anyone). */
export async function insertPasskey(
  db: Db,
  row: { credentialId: string; userId: string; name: string; publicKey: Buffer; counter: number; transports: string[]; backedUp: boolean },
) {
  return db
    .insertInto('two_step_passkeys')
    .values({
      credential_id: row.credentialId,
      user_id: row.userId,
      name: row.name,
      public_key: row.publicKey,
      counter: row.counter,
      transports: row.transports,
      backed_up: row.backedUp,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning(['credential_id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst();
}

export async function renamePasskey(db: Db, userId: string, credentialId: string, name: string) {
  return db
    .updateTable('two_step_passkeys')
    .set({ name })
    .where('user_id', '=', userId)
    .where('credential_id', '=', credentialId)
    .returning(['credential_id', 'name', 'created_at', 'last_used_at'])
    .executeTakeFirst();
}

export async function deletePasskey(db: Db, userId: string, credentialId: string): Promise<boolean> {
  const result = await db.deleteFrom('two_step_passkeys').where('user_id', '=', userId).where('credential_id', '=', credentialId).returning('credential_id').executeTakeFirst();
  return result !== undefined;
}

/**
 * Records a use: the new signature counter and the time. Only when the stored counter is still the one the check saw,
 * so two requests replaying one signature count once (the second is refused).
 */
export async function recordUse(db: Db, credentialId: string, seenCounter: string, newCounter: number): Promise<boolean> {
  const result = await db
    .updateTable('two_step_passkeys')
    .set({ counter: newCounter, last_used_at: sql<Date>`now()` })
    .where('credential_id', '=', credentialId)
    .where('counter', '=', seenCounter)
    .returning('credential_id')
    .executeTakeFirst();
  return result !== undefined;
}

/** A challenge handed out now, usable once until it expires; expired ones are swept at the same time. */
export async function saveChallenge(
  db: Db,
  challenge: { challenge: string; purpose: ChallengePurpose; userId: string | null; sessionId: string | null; expiresAt: Date },
): Promise<void> {
  await db.deleteFrom('two_step_passkey_challenges').where('expires_at', '<', sql<Date>`now()`).execute();
  await db
    .insertInto('two_step_passkey_challenges')
    .values({ challenge: challenge.challenge, purpose: challenge.purpose, user_id: challenge.userId, session_id: challenge.sessionId, expires_at: challenge.expiresAt })
    .execute();
}

/**
 * Uses up a challenge: true when it was handed out for this purpose (and person and session, when named) and has not
 * expired. It is deleted either way, so it never works twice.
 */
export async function takeChallenge(db: Db, challenge: string, purpose: ChallengePurpose, userId: string | null, sessionId: string | null): Promise<boolean> {
  const row = await db.deleteFrom('two_step_passkey_challenges').where('challenge', '=', challenge).returningAll().executeTakeFirst();
  if (!row) return false;
  return row.purpose === purpose && row.user_id === userId && row.session_id === sessionId && row.expires_at.getTime() > Date.now();
}
