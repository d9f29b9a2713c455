import { sql, type Kysely, type Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';
import type { TeacherMember } from './libraries.repository.js';

/** SQL for making a person (a visiting admin, an admin taking over libraries) a member of an organisation. */

type Db = Kysely<DB> | Transaction<DB>;

const memberColumns = [
  'id', 'organisation_id', 'user_id', 'email', 'display_name', 'role', 'pending', 'is_student', 'revoked_at', 'license_id', 'is_provider_staff',
] as const;

/** The person's member row (by e-mail, else identity user), locked for the rest of the transaction. */
export async function lockMemberOfPerson(
  db: Db,
  organisationId: string,
  person: { email: string; userId: string | null },
): Promise<TeacherMember | undefined> {
  const email = person.email.toLowerCase();
  return db
    .selectFrom('members')
    .select(memberColumns)
    .where('organisation_id', '=', organisationId)
    .where((eb) => (person.userId ? eb.or([eb('email', '=', email), eb('user_id', '=', person.userId)]) : eb('email', '=', email)))
    .orderBy(sql`email = ${email}`, 'desc')
    .forUpdate()
    .executeTakeFirst();
}

/** Inserts a member; a concurrent insert of the same e-mail wins and this returns undefined. */
export async function insertMember(
  db: Db,
  row: { id: string; organisationId: string; email: string; userId: string | null; displayName: string; signedUp: boolean; providerStaff: boolean },
): Promise<TeacherMember | undefined> {
  return db
    .insertInto('members')
    .values({
      id: row.id,
      organisation_id: row.organisationId,
      email: row.email.toLowerCase(),
      user_id: row.userId,
      display_name: row.displayName,
      role: row.signedUp ? 600 : -600,
      pending: !row.signedUp,
      signed_up_at: row.signedUp ? now() : null,
      is_provider_staff: row.providerStaff,
    })
    .onConflict((oc) => oc.columns(['organisation_id', 'email']).doNothing())
    .returning(memberColumns)
    .executeTakeFirst();
}

/** Makes a removed member active again. */
export async function restoreMember(db: Db, organisationId: string, memberId: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ revoked_at: null, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .execute();
}

/** Marks a member as provider staff; staff hold no licence seat. */
export async function markProviderStaff(db: Db, organisationId: string, memberId: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ is_provider_staff: true, license_id: null, updated_at: sql`now()` })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .execute();
}

/**
 * Marks every member with an address of the provider's e-mail domain as provider staff, and frees their seat:
 * the rows earlier versions made when staff visited a library. Run at start; answers how many.
 */
export async function markProviderStaffByDomain(db: Db, providerEmailDomain: string): Promise<number> {
  const suffix = `@${providerEmailDomain.toLowerCase().replace(/[\\%_]/g, '\\$&')}`;
  // Rows returned, not numUpdatedRows: the PGlite dialect does not report the latter.
  const rows = await db
    .updateTable('members')
    .set({ is_provider_staff: true, license_id: null, updated_at: sql`now()` })
    .where('is_provider_staff', '=', false)
    .where('email', 'like', `%${suffix}`)
    .returning('id')
    .execute();
  return rows.length;
}

/** The organisation's apply-to-all licence (the oldest when there are several), if any. */
export async function findApplyToAllLicense(db: Db, organisationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('licenses')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('apply_to_all', '=', true)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

export async function setMemberLicense(db: Db, organisationId: string, memberId: string, licenseId: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ license_id: licenseId, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .execute();
}

/** The identity user with this id or e-mail. */
export async function findUser(db: Db, by: { id?: string | null; email?: string }) {
  let query = db.selectFrom('user').select(['id', 'name', 'email', 'image']);
  if (by.id) query = query.where('id', '=', by.id);
  else if (by.email) query = query.where('email', '=', by.email.toLowerCase());
  else return undefined;
  return query.executeTakeFirst();
}
