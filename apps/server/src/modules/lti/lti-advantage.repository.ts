import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';
import type { LtiPlatformsTable } from '../../db/types-integrations.js';

type Db = Kysely<DB> | Transaction<DB>;

const PLATFORM_COLUMNS = ['id', 'organisation_id', 'name', 'issuer', 'client_id', 'deployment_ids', 'auth_endpoint', 'token_endpoint', 'jwks_url'] as const;

/** What an admin sets on a platform: its row but for the keys and times the repository fills in. */
export type PlatformRow = Omit<LtiPlatformsTable, 'id' | 'organisation_id' | 'created_at' | 'updated_at'>;

export async function listPlatforms(db: Db, organisationId: string) {
  return db.selectFrom('lti_platforms').select(PLATFORM_COLUMNS).where('organisation_id', '=', organisationId).orderBy('created_at').orderBy('id').execute();
}

export async function findPlatform(db: Db, id: string) {
  return db.selectFrom('lti_platforms').select(PLATFORM_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The platforms registered under an issuer (one per client id). */
export async function findPlatformsByIssuer(db: Db, issuer: string) {
  return db.selectFrom('lti_platforms').select(PLATFORM_COLUMNS).where('issuer', '=', issuer).orderBy('created_at').execute();
}

/** The account a registration address names (its admin), to act as them when the platform registers. */
export async function findUserForRegistration(db: Db, id: string) {
  return db.selectFrom('user').select(['id', 'email', 'name', 'emailVerified']).where('id', '=', id).executeTakeFirst();
}

/** Whether the organisation is a domain organisation (everyone of its domain is a member: nothing is imported). */
export async function isDomainOrganisation(db: Db, organisationId: string): Promise<boolean> {
  const row = await db.selectFrom('organisations').select('is_domain').where('id', '=', organisationId).executeTakeFirst();
  return row?.is_domain === true;
}

/**
 * Adds pending teachers (role -600, as an import adds them) to an organisation; an address already there, pending or
 * signed up, is left as it is. Returns the rows added.
 */
export async function insertPendingTeachers(db: Db, organisationId: string, rows: ReadonlyArray<{ id: string; email: string }>) {
  if (rows.length === 0) return [];
  return db
    .insertInto('members')
    .values(rows.map((r) => ({ id: r.id, organisation_id: organisationId, email: r.email, role: -600, pending: true })))
    .onConflict((oc) => oc.columns(['organisation_id', 'email']).doNothing())
    .returning(['id', 'email'])
    .execute();
}

/** Inserts a platform; undefined when its issuer and client id are registered already. */
export async function insertPlatform(db: Db, organisationId: string, row: PlatformRow) {
  return db
    .insertInto('lti_platforms')
    .values({ id: randomUUID(), organisation_id: organisationId, ...row, created_at: new Date(), updated_at: new Date() })
    .onConflict((oc) => oc.columns(['issuer', 'client_id']).doNothing())
    .returning(PLATFORM_COLUMNS)
    .executeTakeFirst();
}

/** The unique key on a platform's issuer and client id (migration 0019: `UNIQUE (issuer, client_id)`). */
const ISSUER_CLIENT_KEY = 'lti_platforms_issuer_client_id_key';

/**
 * Updates an organisation's platform: 'not-found' when it has no such platform, 'taken' when another registration has
 * the issuer and client id (also when one took them a moment ago, in a concurrent request).
 */
export async function updatePlatform(db: Db, organisationId: string, id: string, row: PlatformRow) {
  try {
    const updated = await db
      .updateTable('lti_platforms')
      .set({ ...row, updated_at: new Date() })
      .where('id', '=', id)
      .where('organisation_id', '=', organisationId)
      .returning(PLATFORM_COLUMNS)
      .executeTakeFirst();
    return updated ?? ('not-found' as const);
  } catch (error) {
    if (isUniqueViolation(error, ISSUER_CLIENT_KEY)) return 'taken' as const;
    throw error;
  }
}

export async function deletePlatform(db: Db, organisationId: string, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('lti_platforms').where('id', '=', id).where('organisation_id', '=', organisationId).returning('id').executeTakeFirst();
  return deleted !== undefined;
}

/** The tool's keys newest first: the current one (not retired) and those retired after `retiredAfter`. */
export async function listToolKeys(db: Db, retiredAfter: Date) {
  return db
    .selectFrom('lti_tool_keys')
    .select(['kid', 'private_key', 'public_jwk', 'created_at', 'retired_at'])
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', retiredAfter)]))
    .orderBy('created_at', 'desc')
    .execute();
}

/** Serialises key rotation across server copies (one transaction at a time decides). */
export async function lockToolKeys(trx: Transaction<DB>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended('lti:tool-keys', 0))`.execute(trx);
}

export async function insertToolKey(db: Db, row: { kid: string; privateKey: string; publicJwk: Record<string, unknown> }): Promise<void> {
  await db
    .insertInto('lti_tool_keys')
    .values({ kid: row.kid, private_key: row.privateKey, public_jwk: JSON.stringify(row.publicJwk), created_at: new Date() })
    .execute();
}

export async function retireToolKeys(db: Db, exceptKid: string, now: Date): Promise<void> {
  await db.updateTable('lti_tool_keys').set({ retired_at: now }).where('retired_at', 'is', null).where('kid', '!=', exceptKid).execute();
}

/** The title of an organisation's book, for the link deep linking makes to it; undefined when it has no such book. */
export async function findBookTitle(db: Db, organisationId: string, bookId: string): Promise<string | undefined> {
  const row = await db.selectFrom('books').select('title').where('organisation_id', '=', organisationId).where('id', '=', bookId).executeTakeFirst();
  return row?.title;
}
