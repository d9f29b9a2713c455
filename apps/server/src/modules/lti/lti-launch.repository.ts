import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/** How long a nonce is remembered: the whole ±300 s window a timestamp may fall in, and a margin. */
export const NONCE_RETENTION_SECONDS = 660;

/** Records a nonce for a key; false when it was already used (a replay). Forgets nonces older than the window. */
export async function claimNonce(db: Db, consumerKey: string, nonce: string): Promise<boolean> {
  await db.deleteFrom('lti_nonces').where('created_at', '<', sql<Date>`now() - make_interval(secs => ${NONCE_RETENTION_SECONDS})`).execute();
  const inserted = await db
    .insertInto('lti_nonces')
    .values({ consumer_key: consumerKey, nonce })
    .onConflict((oc) => oc.columns(['consumer_key', 'nonce']).doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Serialises launches of one platform user, so two at once provision one account. */
export async function lockPlatformUser(trx: Transaction<DB>, organisationId: string, ltiUserId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`lti:${organisationId}:${ltiUserId}`}, 0))`.execute(trx);
}

export async function findLinkedUser(db: Db, organisationId: string, ltiUserId: string) {
  return db
    .selectFrom('lti_users')
    .innerJoin('user', 'user.id', 'lti_users.user_id')
    .select(['user.id', 'user.email', 'user.name'])
    .where('lti_users.organisation_id', '=', organisationId)
    .where('lti_users.lti_user_id', '=', ltiUserId)
    .executeTakeFirst();
}

export async function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('user').select(['id', 'email', 'name']).where('email', '=', email).executeTakeFirst();
}

/** A user created by a launch: the platform's claim of an e-mail proves nothing, so it stays unverified. */
export async function insertUser(db: Db, row: { email: string; name: string }) {
  const now = new Date();
  return db
    .insertInto('user')
    .values({ id: randomUUID(), email: row.email, name: row.name, emailVerified: false, image: null, createdAt: now, updatedAt: now })
    .returning(['id', 'email', 'name'])
    .executeTakeFirstOrThrow();
}

export async function linkUser(db: Db, organisationId: string, ltiUserId: string, userId: string): Promise<void> {
  await db
    .insertInto('lti_users')
    .values({ organisation_id: organisationId, lti_user_id: ltiUserId, user_id: userId })
    .onConflict((oc) => oc.columns(['organisation_id', 'lti_user_id']).doUpdateSet({ last_launch_at: now() }))
    .execute();
}

export async function findMember(db: Db, organisationId: string, user: { id: string; email: string }) {
  return db
    .selectFrom('members')
    .select(['id', 'user_id', 'is_student', 'pending', 'revoked_at'])
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('user_id', '=', user.id), eb('email', '=', user.email)]))
    .orderBy('revoked_at', 'desc')
    .executeTakeFirst();
}

export async function insertMember(db: Db, organisationId: string, row: { userId: string; email: string; displayName: string; isStudent: boolean }) {
  const now = new Date();
  return db
    .insertInto('members')
    .values({
      id: randomUUID(),
      organisation_id: organisationId,
      user_id: row.userId,
      email: row.email,
      display_name: row.displayName,
      role: 600,
      pending: false,
      is_student: row.isStudent,
      signed_up_at: now,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

/** A pending member (imported, not signed up) who launches is now signed up and linked to the user. */
export async function markMemberSignedUp(db: Db, organisationId: string, memberId: string, userId: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ user_id: userId, pending: false, role: sql`CASE WHEN role = -600 THEN 600 ELSE role END`, signed_up_at: sql`coalesce(signed_up_at, now())`, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .execute();
}
