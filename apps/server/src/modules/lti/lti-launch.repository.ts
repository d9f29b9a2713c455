import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/** How long a nonce is remembered: the whole ±300 s window a timestamp may fall in, and a margin. */
const NONCE_RETENTION_SECONDS = 660;

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

/** Gives a claimed nonce back (a registration address whose registration failed before the platform answered). */
export async function releaseNonce(db: Db, consumerKey: string, nonce: string): Promise<void> {
  await db.deleteFrom('lti_nonces').where('consumer_key', '=', consumerKey).where('nonce', '=', nonce).execute();
}

/** Serialises launches of one platform user, so two at once provision one account. */
export async function lockPlatformUser(trx: Transaction<DB>, organisationId: string, ltiUserId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`lti:${organisationId}:${ltiUserId}`}, 0))`.execute(trx);
}

/** The account a platform user was linked to, and whether it has a way in of its own (a password or a provider). */
export async function findLinkedUser(db: Db, organisationId: string, ltiUserId: string) {
  return db
    .selectFrom('lti_users')
    .innerJoin('user', 'user.id', 'lti_users.user_id')
    .select(['user.id', 'user.email', 'user.name'])
    .select((eb) => eb.exists(eb.selectFrom('account').select('account.id').whereRef('account.userId', '=', 'user.id')).as('has_own_sign_in'))
    .where('lti_users.organisation_id', '=', organisationId)
    .where('lti_users.lti_user_id', '=', ltiUserId)
    .executeTakeFirst();
}

/** A user created by a launch: an address of its own under `lti.invalid`, never verified, no way in but launches. */
export async function insertUser(db: Db, row: { email: string; name: string }) {
  const now = new Date();
  return db
    .insertInto('user')
    .values({ id: randomUUID(), email: row.email, name: row.name, emailVerified: false, image: null, createdAt: now, updatedAt: now })
    .returning(['id', 'email', 'name'])
    .executeTakeFirstOrThrow();
}

/** Links a platform user to the account its first launch created; later launches refresh the contact address and time. */
export async function linkUser(db: Db, organisationId: string, ltiUserId: string, userId: string, contactEmail: string | undefined): Promise<void> {
  await db
    .insertInto('lti_users')
    .values({ organisation_id: organisationId, lti_user_id: ltiUserId, user_id: userId, contact_email: contactEmail ?? null })
    .onConflict((oc) =>
      oc.columns(['organisation_id', 'lti_user_id']).doUpdateSet({ last_launch_at: now(), contact_email: sql<string | null>`coalesce(excluded.contact_email, lti_users.contact_email)` }),
    )
    .execute();
}

/** The user's own member row in the organisation: by identity user only (an e-mail names nobody here). */
export async function findMember(db: Db, organisationId: string, userId: string) {
  return db
    .selectFrom('members')
    .select(['id', 'user_id', 'is_student', 'pending', 'revoked_at'])
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .orderBy('revoked_at', 'desc')
    .executeTakeFirst();
}

/**
 * Takes one new account from the credentials' allowance (GCRA): each account moves the due time on by
 * `intervalMs`; a burst may run `toleranceMs` ahead of now. False, and nothing changed, when the allowance is spent.
 */
export async function takeAccountAllowance(
  db: Db,
  key: { organisationId: string; consumerKey: string },
  rate: { intervalMs: number; toleranceMs: number },
): Promise<boolean> {
  const interval = sql`make_interval(secs => ${rate.intervalMs / 1000})`;
  const tolerance = sql`make_interval(secs => ${rate.toleranceMs / 1000})`;
  const { rows } = await sql<{ due_at: Date }>`
    INSERT INTO lti_account_rates AS r (organisation_id, consumer_key, due_at)
    VALUES (${key.organisationId}, ${key.consumerKey}, now() + ${interval})
    ON CONFLICT (organisation_id, consumer_key) DO UPDATE
      SET due_at = greatest(r.due_at, now()) + ${interval}
      WHERE greatest(r.due_at, now()) <= now() + ${tolerance}
    RETURNING due_at`.execute(db);
  return rows.length > 0;
}

/** How many platform users the organisation's launches have created accounts for. */
export async function countLinkedUsers(db: Db, organisationId: string): Promise<number> {
  const row = await db.selectFrom('lti_users').select((eb) => eb.fn.countAll<string>().as('n')).where('organisation_id', '=', organisationId).executeTakeFirst();
  return Number(row?.n ?? 0);
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
