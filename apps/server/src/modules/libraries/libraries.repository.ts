import { LIBRARY_ROLE_OWNER, LIBRARY_ROLE_READ_ONLY } from '@quire/core';
import { sql, type Kysely, type Transaction } from 'kysely';
import { anyOf, now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/**
 * SQL for teachers' libraries: reading them, and the bulk moves of transfers and archives.
 * Every query filters on organisation_id (the tenant boundary). Functions take a Kysely instance or a transaction.
 */

type Db = Kysely<DB> | Transaction<DB>;

export interface TeacherMember {
  id: string;
  organisation_id: string;
  user_id: string | null;
  email: string;
  display_name: string;
  role: number;
  pending: boolean;
  is_student: boolean;
  revoked_at: Date | null;
  license_id: string | null;
  /** Provider staff visiting for support: never one of the school's teachers. */
  is_provider_staff: boolean;
}

const memberColumns = [
  'id', 'organisation_id', 'user_id', 'email', 'display_name', 'role', 'pending', 'is_student', 'revoked_at', 'license_id', 'is_provider_staff',
] as const;

/** A member of one organisation by member id. */
export async function findMember(db: Db, organisationId: string, memberId: string): Promise<TeacherMember | undefined> {
  return db.selectFrom('members').select(memberColumns).where('organisation_id', '=', organisationId).where('id', '=', memberId).executeTakeFirst();
}

/** The actor's own member rows in the organisation (by e-mail or identity user). */
export async function findMemberIdsOfPerson(db: Db, organisationId: string, person: { email: string; userId: string }): Promise<string[]> {
  const rows = await db
    .selectFrom('members')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('email', '=', person.email.toLowerCase()), eb('user_id', '=', person.userId)]))
    .execute();
  return rows.map((r) => r.id);
}

/** One library as the lists read it, from the point of view of one teacher. */
export interface TeacherLibraryRow {
  id: string;
  name: string;
  is_private: boolean;
  archived_at: Date | null;
  owner_member_id: string;
  role: number;
  book_count: number | string;
  user_count: number | string;
  joined: boolean;
}

export interface TeacherLibraryFilter {
  organisationId: string;
  memberId: string;
  /** The acting admin's member ids in the organisation: sets `joined`. */
  viewerMemberIds: readonly string[];
  relation?: 'all' | 'owned' | 'joined';
  archived?: boolean;
  /** The teacher's own private library is left out of lists (the console adds My Books itself). */
  includeOwnPrivate?: boolean;
  libraryId?: string;
}

/** Libraries the teacher owns or belongs to, with counts, the teacher's role and whether the viewer joined. */
export async function listTeacherLibraries(db: Db, filter: TeacherLibraryFilter): Promise<TeacherLibraryRow[]> {
  const { organisationId, memberId } = filter;
  let query = db
    .selectFrom('libraries as l')
    .leftJoin('library_memberships as tm', (join) =>
      join.onRef('tm.organisation_id', '=', 'l.organisation_id').onRef('tm.library_id', '=', 'l.id').on('tm.member_id', '=', memberId),
    )
    .where('l.organisation_id', '=', organisationId)
    // Owned or joined, each found through its own index (an OR across the join would scan the organisation).
    .where(sql<boolean>`l.id IN (
      SELECT library_id FROM library_memberships WHERE organisation_id = ${organisationId} AND member_id = ${memberId}
      UNION ALL
      SELECT id FROM libraries WHERE organisation_id = ${organisationId} AND owner_member_id = ${memberId})`)
    .select([
      'l.id', 'l.name', 'l.is_private', 'l.archived_at', 'l.owner_member_id',
      // An owner without a membership row still holds the Owner level.
      sql<number>`coalesce(tm.role, ${LIBRARY_ROLE_OWNER})`.as('role'),
      sql<number>`(SELECT count(*) FROM books b WHERE b.organisation_id = l.organisation_id AND b.library_id = l.id)`.as('book_count'),
      // Authors: everyone in the library who may write, i.e. below Read-Only; provider staff visiting for support are not.
      sql<number>`(SELECT count(*) FROM library_memberships m JOIN members p ON p.organisation_id = m.organisation_id AND p.id = m.member_id
        WHERE m.organisation_id = l.organisation_id AND m.library_id = l.id AND m.role < ${LIBRARY_ROLE_READ_ONLY} AND NOT p.is_provider_staff)`.as('user_count'),
      filter.viewerMemberIds.length
        ? sql<boolean>`EXISTS (SELECT 1 FROM library_memberships v WHERE v.organisation_id = l.organisation_id AND v.library_id = l.id AND ${anyOf('v.member_id', filter.viewerMemberIds)})`.as('joined')
        : sql<boolean>`false`.as('joined'),
    ]);
  if (filter.relation === 'owned') query = query.where('l.owner_member_id', '=', memberId);
  if (filter.relation === 'joined') query = query.where('l.owner_member_id', '<>', memberId);
  if (filter.archived !== undefined) query = query.where('l.archived_at', filter.archived ? 'is not' : 'is', null);
  if (!filter.includeOwnPrivate) query = query.where((eb) => eb.not(eb.and([eb('l.is_private', '=', true), eb('l.owner_member_id', '=', memberId)])));
  if (filter.libraryId) query = query.where('l.id', '=', filter.libraryId);
  return query.orderBy(sql`lower(l.name)`).orderBy('l.id').execute();
}

/** The libraries a member owns, locked until the transaction ends so a concurrent move waits. */
export async function lockOwnedLibraries(
  db: Db,
  organisationId: string,
  memberId: string,
  options: { unarchivedOnly?: boolean } = {},
): Promise<Array<{ id: string; name: string; is_private: boolean; archived_at: Date | null }>> {
  let query = db
    .selectFrom('libraries')
    .select(['id', 'name', 'is_private', 'archived_at'])
    .where('organisation_id', '=', organisationId)
    .where('owner_member_id', '=', memberId);
  if (options.unarchivedOnly) query = query.where('archived_at', 'is', null);
  return query.orderBy('id').forUpdate().execute();
}

/** Unarchived libraries a member owns (the private one included). */
export async function countOwnedUnarchived(db: Db, organisationId: string, memberId: string): Promise<number> {
  const row = await db
    .selectFrom('libraries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organisation_id', '=', organisationId)
    .where('owner_member_id', '=', memberId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Moves ownership of the libraries; returns the ids moved. */
export async function setOwner(db: Db, organisationId: string, ids: readonly string[], from: string, to: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('libraries')
    .set({ owner_member_id: to })
    .where('organisation_id', '=', organisationId)
    .where('owner_member_id', '=', from)
    .where(anyOf('id', ids))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Gives the member this role in each library: added when missing, changed when present. */
export async function upsertMemberships(db: Db, organisationId: string, ids: readonly string[], memberId: string, role: number): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    INSERT INTO library_memberships (organisation_id, library_id, member_id, role)
    SELECT ${organisationId}, t.id, ${memberId}, ${role} FROM unnest(${[...ids]}::text[]) AS t(id)
    ON CONFLICT (organisation_id, library_id, member_id) DO UPDATE SET role = EXCLUDED.role`.execute(db);
}

/** Lowers the member's role in the libraries to `role` where it was stronger (a former owner stays as co-teacher). */
export async function demoteMemberships(db: Db, organisationId: string, ids: readonly string[], memberId: string, role: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('library_memberships')
    .set({ role })
    .where('organisation_id', '=', organisationId)
    .where('member_id', '=', memberId)
    .where('role', '<', role)
    .where(anyOf('library_id', ids))
    .execute();
}

/** Adds the member to the library unless they are in it; true when added. */
export async function addMembershipIfMissing(db: Db, organisationId: string, libraryId: string, memberId: string, role: number): Promise<boolean> {
  const rows = await db
    .insertInto('library_memberships')
    .values({ organisation_id: organisationId, library_id: libraryId, member_id: memberId, role })
    .onConflict((oc) => oc.columns(['organisation_id', 'library_id', 'member_id']).doNothing())
    .returning('member_id')
    .execute();
  return rows.length > 0;
}

/** Archives (closes) the member's unarchived libraries; returns the ids closed and when (the database's clock). */
export async function archiveOwned(db: Db, organisationId: string, memberId: string): Promise<{ libraryIds: string[]; archivedAt: Date }> {
  const rows = await db
    .updateTable('libraries')
    .set({ archived_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('owner_member_id', '=', memberId)
    .where('archived_at', 'is', null)
    .returning(['id', 'archived_at'])
    .execute();
  const archivedAt = rows[0]?.archived_at ?? (await sql<{ now: Date }>`SELECT now() AS now`.execute(db)).rows[0]?.now ?? new Date();
  return { libraryIds: rows.map((r) => r.id).sort(), archivedAt: new Date(archivedAt) };
}
