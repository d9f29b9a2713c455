import { sql, type Kysely } from 'kysely';
import { anyOf, now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/**
 * SQL for organisation members (teachers): finding them and every write. The list query (page and CSV) is in
 * teachers-list.repository.ts; books and libraries are the libraries module's. Every query filters on
 * organisation_id: that is the tenant boundary. Functions take a Kysely instance or a transaction.
 */

/** The members of one organisation among `ids` (ids of other organisations are simply not found). */
export async function findMembers(db: Kysely<DB>, organisationId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('members')
    .select(['id', 'user_id', 'email', 'display_name', 'role', 'license_id', 'pending', 'is_student', 'revoked_at'])
    .where('organisation_id', '=', organisationId)
    .where(anyOf('id', ids))
    .execute();
}

export type MemberSummary = Awaited<ReturnType<typeof findMembers>>[number];

/** Members of the organisation with these e-mails (already normalised). */
export async function findMembersByEmail(db: Kysely<DB>, organisationId: string, emails: readonly string[]) {
  if (emails.length === 0) return [];
  return db
    .selectFrom('members')
    .select(['id', 'email'])
    .where('organisation_id', '=', organisationId)
    .where(anyOf('email', emails))
    .execute();
}

/**
 * Inserts pending teachers (role -600) in one statement; e-mails already present are skipped
 * (ON CONFLICT), so a concurrent import of the same list cannot create duplicates.
 */
export async function insertPendingMembers(
  db: Kysely<DB>,
  organisationId: string,
  rows: ReadonlyArray<{ id: string; email: string; licenseId: string | null }>,
): Promise<Array<{ id: string; email: string }>> {
  if (rows.length === 0) return [];
  const result = await sql<{ id: string; email: string }>`
    INSERT INTO members (id, organisation_id, email, role, pending, license_id)
    SELECT t.id, ${organisationId}, t.email, -600, true, t.license_id
    FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.email)}::text[], ${rows.map((r) => r.licenseId)}::text[])
      WITH ORDINALITY AS t(id, email, license_id, n)
    ORDER BY t.n
    ON CONFLICT (organisation_id, email) DO NOTHING
    RETURNING id, email`.execute(db);
  return result.rows;
}

/** Sets revoked_at (Remove teacher) and frees the seat; returns the ids changed. */
export async function revokeMembers(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db
    .updateTable('members')
    .set({ revoked_at: now(), license_id: null, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is', null)
    .where(anyOf('id', ids))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Clears revoked_at (Mark as Active); returns the ids changed. */
export async function restoreMembers(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db
    .updateTable('members')
    .set({ revoked_at: null, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is not', null)
    .where(anyOf('id', ids))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteMembers(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db
    .deleteFrom('members')
    .where('organisation_id', '=', organisationId)
    .where(anyOf('id', ids))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function setMemberRole(db: Kysely<DB>, organisationId: string, id: string, role: number): Promise<void> {
  await db
    .updateTable('members')
    .set({ role, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute();
}

/** A member by its id or by its identity user id (the console may hold either). */
export async function findMemberByIdOrUser(db: Kysely<DB>, organisationId: string, idOrUserId: string) {
  return db
    .selectFrom('members')
    .select(['id', 'user_id', 'email', 'display_name', 'role', 'license_id', 'pending', 'is_student', 'revoked_at'])
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('id', '=', idOrUserId), eb('user_id', '=', idOrUserId)]))
    .orderBy(sql`id = ${idOrUserId}`, 'desc')
    .executeTakeFirst();
}

/** Memberships, in any organisation, of a member id or identity user id. */
export async function findMembershipsOf(db: Kysely<DB>, idOrUserId: string) {
  return db
    .selectFrom('members')
    .select(['id', 'organisation_id', 'user_id', 'email', 'role', 'pending', 'is_student', 'revoked_at', 'license_id'])
    .where((eb) => eb.or([eb('id', '=', idOrUserId), eb('user_id', '=', idOrUserId)]))
    .execute();
}

/** Makes the member a student of the organisation and frees their licence. */
export async function markStudent(db: Kysely<DB>, organisationId: string, memberId: string): Promise<void> {
  await db
    .updateTable('members')
    .set({ is_student: true, license_id: null, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .execute();
}

/**
 * A pending member (an imported teacher, role -600) signs up: role 600 (400 when a SCIM group of library managers
 * lists them), the account's name (when it has one)
 * and user id, `signed_up_at` now. Students and members already signed up are left alone. Returns how many.
 */
export async function signUpPendingByEmail(db: Kysely<DB>, email: string, user: { id: string; name: string }): Promise<number> {
  const name = user.name.trim();
  const result = await db
    .updateTable('members')
    .set({
      pending: false,
      // A SCIM group of library managers may have listed them while pending (scim_library_manager_grants): the role
      // it holds for them starts now.
      role: sql<number>`CASE WHEN role >= 0 THEN role
        WHEN EXISTS (SELECT 1 FROM scim_library_manager_grants g WHERE g.organisation_id = members.organisation_id AND g.member_id = members.id)
        THEN 400 ELSE 600 END`,
      display_name: sql<string>`CASE WHEN ${name} <> '' THEN ${name} ELSE display_name END`,
      user_id: user.id,
      signed_up_at: now(),
      updated_at: now(),
    })
    .where('email', '=', email)
    .where('pending', '=', true)
    .where('is_student', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
