import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';

/**
 * SQL for organisation members (teachers). Every query filters on organisation_id: that is the
 * tenant boundary. Functions take a Kysely instance or a transaction.
 */

export type TeacherStatus = 'active' | 'inactive';
export type TeacherSortKey = 'email' | 'name' | 'signedUp' | 'license' | 'removed';
export type SortDirection = 'asc' | 'desc';

export interface TeacherFilter {
  organisationId: string;
  status: TeacherStatus;
  /** Case-insensitive substring of e-mail or display name. */
  search?: string;
  signedUp?: 'yes' | 'no';
  /** A licence id, or 'none'. */
  license?: string;
  certification?: 'complete' | 'in-progress' | 'none';
}

export interface TeacherSort {
  key: TeacherSortKey;
  dir: SortDirection;
}

/** One member row with its licence, as the lists and the export read it. */
export interface TeacherRow {
  id: string;
  user_id: string | null;
  email: string;
  display_name: string;
  role: number;
  license_id: string | null;
  pending: boolean;
  calevel1_at: Date | null;
  calevel2_at: Date | null;
  certifying: number | null;
  is_ambassador: boolean;
  is_student: boolean;
  revoked_at: Date | null;
  signed_up_at: Date | null;
  license_name: string | null;
  book_quota: number | null;
  library_quota: number | null;
  apply_to_all: boolean | null;
  sort_key: unknown;
}

/** Sort expressions; each is followed by m.email, unique per organisation, so the order is total. name matches members_teachers_name_idx. */
const sortExpressions: Record<TeacherSortKey, { expr: RawBuilder<unknown>; type: string }> = {
  email: { expr: sql`m.email`, type: 'text' },
  name: { expr: sql`lower(m.display_name)`, type: 'text' },
  signedUp: { expr: sql`(NOT m.pending)`, type: 'boolean' },
  license: { expr: sql`coalesce(l.book_quota * coalesce(l.library_quota, 1), -1)`, type: 'integer' },
  removed: { expr: sql`coalesce(m.revoked_at, 'epoch'::timestamptz)`, type: 'timestamptz' },
};

/** Escapes LIKE wildcards so a search for "50%" means the characters. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

function filtered(db: Kysely<DB>, filter: TeacherFilter) {
  let query = db
    .selectFrom('members as m')
    .where('m.organisation_id', '=', filter.organisationId)
    .where('m.is_student', '=', false)
    // Provider staff visiting a library for support are members, never the school's teachers (issue 15).
    .where('m.is_provider_staff', '=', false)
    .where('m.revoked_at', filter.status === 'active' ? 'is' : 'is not', null);
  const search = filter.search?.trim();
  if (search) {
    // Both sides are served by the pg_trgm GIN indexes on email and lower(display_name).
    const pattern = likePattern(search);
    query = query.where((eb) => eb.or([eb('m.email', 'like', pattern), eb(sql<string>`lower(m.display_name)`, 'like', pattern)]));
  }
  if (filter.signedUp) query = query.where('m.pending', '=', filter.signedUp === 'no');
  if (filter.license === 'none') query = query.where('m.license_id', 'is', null);
  else if (filter.license) query = query.where('m.license_id', '=', filter.license);
  // The same rule as the Certification column and the CSV: a badge is Complete, progress is In progress.
  const complete = sql<boolean>`(m.calevel1_at IS NOT NULL OR m.calevel2_at IS NOT NULL)`;
  const inProgress = sql<boolean>`(NOT ${complete} AND coalesce(m.certifying, 0) > 0)`;
  if (filter.certification === 'complete') query = query.where(complete);
  else if (filter.certification === 'in-progress') query = query.where(inProgress);
  else if (filter.certification === 'none') query = query.where(sql<boolean>`NOT ${complete} AND NOT ${inProgress}`);
  return query;
}

function selectRows(db: Kysely<DB>, filter: TeacherFilter, sort: TeacherSort) {
  const { expr } = sortExpressions[sort.key];
  const dir = sql.raw(sort.dir === 'desc' ? 'DESC' : 'ASC');
  // E-mail is unique per organisation: ordering by it alone lets PostgreSQL walk the (organisation_id, email) index.
  const order = sort.key === 'email' ? sql`m.email ${dir}` : sql`${expr} ${dir}, m.email ${dir}`;
  return filtered(db, filter)
    .leftJoin('licenses as l', 'l.id', 'm.license_id')
    .select([
      'm.id', 'm.user_id', 'm.email', 'm.display_name', 'm.role', 'm.license_id', 'm.pending', 'm.calevel1_at',
      'm.calevel2_at', 'm.certifying', 'm.is_ambassador', 'm.is_student', 'm.revoked_at', 'm.signed_up_at',
      'l.name as license_name', 'l.book_quota', 'l.library_quota', 'l.apply_to_all',
    ])
    .select(expr.as('sort_key'))
    .orderBy(order);
}

/** One page (OFFSET) of the list, or the whole list when limit is undefined. */
export async function listTeachers(
  db: Kysely<DB>,
  filter: TeacherFilter,
  sort: TeacherSort,
  page?: { limit: number; offset: number },
): Promise<TeacherRow[]> {
  let query = selectRows(db, filter, sort);
  if (page) query = query.limit(page.limit).offset(page.offset);
  return (await query.execute()) as TeacherRow[];
}

/** The rows after `after` in the list's order (keyset), for streaming exports batch by batch. */
export async function listTeachersAfter(
  db: Kysely<DB>,
  filter: TeacherFilter,
  sort: TeacherSort,
  after: { sortKey: unknown; email: string } | null,
  limit: number,
): Promise<TeacherRow[]> {
  const { expr, type } = sortExpressions[sort.key];
  let query = selectRows(db, filter, sort);
  if (after) {
    const op = sql.raw(sort.dir === 'desc' ? '<' : '>');
    // A row comparison matching the index columns, so each batch starts with an index seek.
    query = query.where(
      sort.key === 'email'
        ? sql<boolean>`m.email ${op} ${after.email}::text`
        : sql<boolean>`(${expr}, m.email) ${op} (${after.sortKey}::${sql.raw(type)}, ${after.email}::text)`,
    );
  }
  return (await query.limit(limit).execute()) as TeacherRow[];
}

/**
 * The ids of every teacher the filter matches, rows locked for the rest of the caller's transaction: the set a
 * bulk action on 'all n teachers' changes (issue 15), so no teacher joins or leaves it until the change commits.
 */
export async function lockTeacherIds(db: Kysely<DB>, filter: TeacherFilter): Promise<string[]> {
  const rows = await filtered(db, filter).select('m.id').orderBy('m.id').forUpdate().execute();
  return rows.map((r) => r.id);
}

export async function countTeachers(db: Kysely<DB>, filter: TeacherFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The members of one organisation among `ids` (ids of other organisations are simply not found). */
export async function findMembers(db: Kysely<DB>, organisationId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('members')
    .select(['id', 'user_id', 'email', 'display_name', 'role', 'license_id', 'pending', 'is_student', 'revoked_at'])
    .where('organisation_id', '=', organisationId)
    .where(sql<boolean>`id = ANY(${[...ids]}::text[])`)
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
    .where(sql<boolean>`email = ANY(${[...emails]}::text[])`)
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
    .set({ revoked_at: sql`now()`, license_id: null, updated_at: sql`now()` })
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is', null)
    .where(sql<boolean>`id = ANY(${[...ids]}::text[])`)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Clears revoked_at (Mark as Active); returns the ids changed. */
export async function restoreMembers(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db
    .updateTable('members')
    .set({ revoked_at: null, updated_at: sql`now()` })
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is not', null)
    .where(sql<boolean>`id = ANY(${[...ids]}::text[])`)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteMembers(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await db
    .deleteFrom('members')
    .where('organisation_id', '=', organisationId)
    .where(sql<boolean>`id = ANY(${[...ids]}::text[])`)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function setMemberRole(db: Kysely<DB>, organisationId: string, id: string, role: number): Promise<void> {
  await db
    .updateTable('members')
    .set({ role, updated_at: sql`now()` })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute();
}

/** Books in the libraries a member owns: non-private ones, the private one, and both. */
export async function countOwnedBooks(
  db: Kysely<DB>,
  organisationId: string,
  memberId: string,
): Promise<{ owned: number; private: number; total: number }> {
  const row = await db
    .selectFrom('books as b')
    .innerJoin('libraries as lib', (join) =>
      join.onRef('lib.organisation_id', '=', 'b.organisation_id').onRef('lib.id', '=', 'b.library_id'),
    )
    .where('lib.organisation_id', '=', organisationId)
    .where('lib.owner_member_id', '=', memberId)
    .select([
      sql<number>`count(*) FILTER (WHERE NOT lib.is_private)`.as('owned'),
      sql<number>`count(*) FILTER (WHERE lib.is_private)`.as('private'),
      sql<number>`count(*)`.as('total'),
    ])
    .executeTakeFirstOrThrow();
  return { owned: Number(row.owned), private: Number(row.private), total: Number(row.total) };
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

/** The flags of an organisation that member rules depend on. */
export async function findOrganisationFlags(db: Kysely<DB>, organisationId: string) {
  return db
    .selectFrom('organisations')
    .select(['id', 'name', 'is_domain', 'org_libraries'])
    .where('id', '=', organisationId)
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
    .set({ is_student: true, license_id: null, updated_at: sql`now()` })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .execute();
}

/** Renames the member's private library, or creates it when they have none. */
export async function upsertPrivateLibrary(
  db: Kysely<DB>,
  organisationId: string,
  memberId: string,
  name: string,
  newId: string,
): Promise<{ id: string; name: string; created: boolean }> {
  const renamed = await db
    .updateTable('libraries')
    .set({ name })
    .where('organisation_id', '=', organisationId)
    .where('owner_member_id', '=', memberId)
    .where('is_private', '=', true)
    .returning(['id', 'name'])
    .executeTakeFirst();
  if (renamed) return { ...renamed, created: false };
  const created = await db
    .insertInto('libraries')
    .values({ id: newId, organisation_id: organisationId, owner_member_id: memberId, name, is_private: true })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  return { ...created, created: true };
}
