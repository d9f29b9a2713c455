import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/** 2-step verification's SQL (docs/identity.md "2-step verification"). */

/** The person has 2-step verification on: a confirmed authenticator app or at least one passkey. */
function enrolled(userId: ReturnType<typeof sql.ref> | string) {
  return sql<boolean>`(EXISTS (SELECT 1 FROM two_step_factors f WHERE f.user_id = ${userId} AND f.confirmed_at IS NOT NULL)
    OR EXISTS (SELECT 1 FROM two_step_passkeys p WHERE p.user_id = ${userId}))`;
}

export async function isEnrolled(db: Db, userId: string): Promise<boolean> {
  const { rows } = await sql<{ on: boolean }>`SELECT ${enrolled(userId)} AS on`.execute(db);
  return rows[0]?.on ?? false;
}

export function findFactor(db: Db, userId: string, lock = false) {
  let query = db.selectFrom('two_step_factors').selectAll().where('user_id', '=', userId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** A new (or replaced) authenticator set-up, pending until confirmed. */
export async function savePendingFactor(db: Db, userId: string, sealedSecret: string): Promise<Date> {
  const row = await db
    .insertInto('two_step_factors')
    .values({ user_id: userId, totp_secret: sealedSecret, created_at: sql<Date>`now()`, confirmed_at: null, last_totp_step: null })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ totp_secret: sealedSecret, created_at: sql<Date>`now()`, confirmed_at: null, last_totp_step: null }))
    .returning('created_at')
    .executeTakeFirstOrThrow();
  return row.created_at;
}

/**
 * Records `step` as the last accepted time step, only when it is later than the one stored: false when a code of that
 * step (or a later one) was accepted before, so the same code never works twice, even for two requests at once.
 */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('two_step_factors')
    .set({ last_totp_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', String(step))]))
    .returning('user_id')
    .executeTakeFirst();
  return result !== undefined;
}

export async function confirmFactor(db: Db, userId: string): Promise<void> {
  await db.updateTable('two_step_factors').set({ confirmed_at: sql<Date>`now()` }).where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Db, userId: string, hashes: Buffer[]): Promise<void> {
  await db.deleteFrom('two_step_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_step_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

/** Uses a recovery code once: false when it is not one of the person's or was used before. */
export async function useRecoveryCode(db: Db, userId: string, hash: Buffer): Promise<boolean> {
  const result = await db
    .updateTable('two_step_recovery_codes')
    .set({ used_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
  return result !== undefined;
}

export async function countRecoveryCodes(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('two_step_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes the person's second factors (authenticator app and passkeys), codes and trusted devices. */
export async function removeTwoStep(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('two_step_passkeys').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_step_trusted_devices').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_step_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_step_factors').where('user_id', '=', userId).execute();
}

export async function markSessionSecondStep(db: Db, sessionId: string, method: string): Promise<void> {
  await db.updateTable('session').set({ twoStepMethod: method }).where('id', '=', sessionId).execute();
}

/** Ends every session of the person but one (those made before 2-step verification was turned on). */
export async function endOtherSessions(db: Db, userId: string, keepSessionId: string | null): Promise<void> {
  let query = db.deleteFrom('session').where('userId', '=', userId);
  if (keepSessionId) query = query.where('id', '<>', keepSessionId);
  await query.execute();
}

export async function addTrustedDevice(db: Db, userId: string, tokenHash: Buffer, expiresAt: Date): Promise<void> {
  await db.insertInto('two_step_trusted_devices').values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt }).execute();
}

export async function isTrustedDevice(db: Db, userId: string, tokenHash: Buffer): Promise<boolean> {
  const row = await db
    .selectFrom('two_step_trusted_devices')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('user_id', '=', userId)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row !== undefined;
}

/** The session of a token with its person and whether it waits for the second step (right after a sign-in). */
export function sessionByToken(db: Db, token: string) {
  return db
    .selectFrom('session as s')
    .innerJoin('user as u', 'u.id', 's.userId')
    .select(['s.id as sessionId', 's.twoStepMethod', 'u.id as userId', 'u.email'])
    .select(enrolled(sql.ref('u.id')).as('enrolled'))
    .where('s.token', '=', token)
    .executeTakeFirst();
}

/** The organisations where the person is listed as an admin (their own 2-step changes are recorded in each). */
export async function listedAdminOrganisations(db: Db, userId: string, email: string): Promise<string[]> {
  const rows = await db
    .selectFrom('admins')
    .select('organisation_id')
    .distinct()
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('email', '=', email.trim().toLowerCase())]))
    .execute();
  return rows.map((r) => r.organisation_id);
}

/** A change of the person's own 2-step verification when they administer no organisation: their own access log. */
export async function insertOwnAccessEvent(db: Db, entry: { userId: string; event: string; ip: string | null; userAgent: string | null }): Promise<void> {
  await db.insertInto('access_log').values({ user_id: entry.userId, event: entry.event, ip: entry.ip, user_agent: entry.userAgent }).execute();
}

/** True when an organisation the person administers, or one above it, requires 2-step verification of its admins. */
export async function requiredByOrganisation(db: Db, userId: string, email: string): Promise<boolean> {
  const { rows } = await sql<{ required: boolean }>`
    SELECT EXISTS (
      SELECT 1 FROM admins a
      JOIN organisation_ancestors under ON under.ancestor_id = a.organisation_id
      JOIN organisation_ancestors up ON up.organisation_id = under.organisation_id
      JOIN organisations o ON o.id = up.ancestor_id
      WHERE (a.user_id = ${userId} OR a.email = ${email.trim().toLowerCase()}) AND o.require_two_step_admins) AS required`.execute(db);
  return rows[0]?.required ?? false;
}

export async function hasPassword(db: Db, userId: string): Promise<string | null> {
  const row = await db.selectFrom('account').select('password').where('userId', '=', userId).where('providerId', '=', 'credential').executeTakeFirst();
  return row?.password ?? null;
}

export async function readPolicy(db: Db, organisationId: string): Promise<{ own: boolean; above: boolean }> {
  const { rows } = await sql<{ own: boolean; above: boolean }>`
    SELECT o.require_two_step_admins AS own,
      EXISTS (SELECT 1 FROM organisation_ancestors up JOIN organisations a ON a.id = up.ancestor_id
              WHERE up.organisation_id = o.id AND up.depth > 0 AND a.require_two_step_admins) AS above
    FROM organisations o WHERE o.id = ${organisationId}`.execute(db);
  return rows[0] ?? { own: false, above: false };
}

export async function writePolicy(db: Db, organisationId: string, required: boolean): Promise<void> {
  await db.updateTable('organisations').set({ require_two_step_admins: required }).where('id', '=', organisationId).execute();
}
