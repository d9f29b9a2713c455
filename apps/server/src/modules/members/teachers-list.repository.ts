import type { SortDirection, TeacherSortKey, TeacherStatus, TeachersListParams } from '@quire/core';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';

/**
 * The Teachers list query, shared by the page (teachers-page.repository.ts), the CSV export
 * (teachers-csv.repository.ts) and the bulk actions: one filter, one order, one keyset, each split into the shape that
 * decides the SQL text and the values bound to it (db/statement-shapes.ts). Every query filters on organisation_id,
 * the tenant boundary. Measured in docs/performance.md ("Teachers list and export").
 */

/**
 * Which teachers: the organisation, the tab, and the list's search and filters (the core list query's). With view
 * 'district', the organisation's own teachers and those of every organisation under it (`school`: one of them).
 */
export type TeacherFilter = { organisationId: string; status: TeacherStatus } & Pick<
  TeachersListParams,
  'search' | 'signedUp' | 'license' | 'certification' | 'view' | 'school'
>;

/** Whether the filter spans a district (its own teachers and its schools'). */
export const isDistrictFilter = (filter: Pick<TeacherFilter, 'view'>): boolean => filter.view === 'district';

export interface TeacherSort {
  key: TeacherSortKey;
  dir: SortDirection;
}

/**
 * Where a keyset page starts: the sort key and e-mail of the row just before it (`after`) or just after it
 * (`before`), as the UTF-8 bytes of their text in the database. Bytes, because PGlite's text decoder drops a
 * leading U+FEFF: a key read back as text would then sort before its own row and the next batch would start
 * with the same rows again, for ever. A district's list also needs the member id: an e-mail is unique in one
 * organisation, not across its schools (the same teacher may teach in two).
 */
export interface TeacherSeek {
  key: Uint8Array;
  email: Uint8Array;
  id?: string;
}

/** One member row with its licence, as the list reads it. */
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
  seek_key: Uint8Array;
  seek_email: Uint8Array;
  seek_id: string;
  organisation_id: string;
  /** The role a OneRoster import gave the member, or null (rosterRoleColumn). */
  roster_role: string | null;
  /** A district's list only: the name of the teacher's organisation (the School column). */
  organisation_name?: string | null;
}

/**
 * Sort expressions; each is followed by m.email, unique per organisation (and by m.id in a district's list), so the
 * order is total. name matches members_teachers_name_idx (members_removed_name_idx on the Inactive tab); signedUp and
 * removed match members_signed_up_idx and members_removed_at_idx. school is the School column, case-insensitive like
 * name: the name of the member's organisation, read by its primary key (no index orders members by it; a district's page
 * sorted by school or licence reads each group's rows in e-mail order instead: orderedRowsByGroup).
 */
export const sortExpressions: Record<TeacherSortKey, { expr: RawBuilder<unknown>; type: string }> = {
  email: { expr: sql`m.email`, type: 'text' },
  name: { expr: sql`lower(m.display_name)`, type: 'text' },
  signedUp: { expr: sql`(NOT m.pending)`, type: 'boolean' },
  license: { expr: sql`coalesce(l.book_quota * coalesce(l.library_quota, 1), -1)`, type: 'integer' },
  removed: { expr: sql`coalesce(m.revoked_at, 'epoch'::timestamptz)`, type: 'timestamptz' },
  school: { expr: sql`lower((SELECT so.name FROM organisations AS so WHERE so.id = m.organisation_id))`, type: 'text' },
};

/** Escapes LIKE wildcards so a search for "50%" means the characters. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

/** What of a filter decides the SQL text (the values are bound apart: FilterValues; db/statement-shapes.ts). */
export interface FilterShape {
  status: TeacherStatus;
  /** A district's list: its own teachers and every school's under it; `school` narrows it to one organisation of it. */
  district: boolean;
  school: boolean;
  search: boolean;
  signedUp: boolean;
  license: 'none' | 'one' | null;
  certification: TeacherFilter['certification'] | null;
}

/** A filter's values, as the statement takes them (each is there when the shape uses it). */
export interface FilterValues {
  organisationId: string;
  /** District scope: the organisation of the district whose teachers are listed. */
  schoolId?: string;
  /** The search as a LIKE pattern. */
  pattern?: string;
  /** Signed up: No. */
  pending?: boolean;
  licenseId?: string;
}

export function filterOf(filter: TeacherFilter): { shape: FilterShape; values: FilterValues } {
  const search = filter.search?.trim();
  return {
    shape: {
      status: filter.status,
      district: isDistrictFilter(filter),
      school: isDistrictFilter(filter) && Boolean(filter.school),
      search: Boolean(search),
      signedUp: Boolean(filter.signedUp),
      license: filter.license === 'none' ? 'none' : filter.license ? 'one' : null,
      certification: filter.certification ?? null,
    },
    values: {
      organisationId: filter.organisationId,
      ...(isDistrictFilter(filter) && filter.school ? { schoolId: filter.school } : {}),
      ...(search ? { pattern: likePattern(search) } : {}),
      ...(filter.signedUp ? { pending: filter.signedUp === 'no' } : {}),
      ...(filter.license && filter.license !== 'none' ? { licenseId: filter.license } : {}),
    },
  };
}

/**
 * The organisations whose members a list holds: the organisation alone, or (district scope) the organisation and every
 * one under it through the tree's closure, optionally one of them (`school`; an organisation outside the tree matches
 * nothing).
 */
export function listOrganisations(db: Kysely<DB>, shape: Pick<FilterShape, 'district' | 'school'>, v: Pick<FilterValues, 'organisationId' | 'schoolId'>) {
  let query = db.selectFrom('organisation_ancestors as a').select('a.organisation_id').where('a.ancestor_id', '=', v.organisationId);
  if (shape.school) query = query.where('a.organisation_id', '=', v.schoolId!);
  return query;
}

/**
 * The members the filter matches. `inOrganisation`: only those of that one organisation (an expression of the
 * enclosing query: orderedRowsBySchool's school), instead of the filter's organisation or district.
 */
export function filtered(db: Kysely<DB>, shape: FilterShape, v: FilterValues, inOrganisation?: RawBuilder<string>) {
  let query = db
    .selectFrom('members as m')
    .where(
      'm.organisation_id',
      shape.district && !inOrganisation ? 'in' : '=',
      inOrganisation ?? (shape.district ? listOrganisations(db, shape, v) : v.organisationId),
    )
    .where('m.is_student', '=', false)
    // Provider staff visiting a library for support are members, never the school's teachers.
    .where('m.is_provider_staff', '=', false)
    .where('m.revoked_at', shape.status === 'active' ? 'is' : 'is not', null);
  if (shape.search) {
    // Both sides are served by the pg_trgm GIN indexes on email and lower(display_name).
    const pattern = v.pattern!;
    query = query.where((eb) => eb.or([eb('m.email', 'like', pattern), eb(sql<string>`lower(m.display_name)`, 'like', pattern)]));
  }
  if (shape.signedUp) query = query.where('m.pending', '=', v.pending!);
  if (shape.license === 'none') query = query.where('m.license_id', 'is', null);
  else if (shape.license === 'one') query = query.where('m.license_id', '=', v.licenseId!);
  // The same rule as the Certification column and the CSV: a badge is Complete, progress is In progress.
  const complete = sql<boolean>`(m.calevel1_at IS NOT NULL OR m.calevel2_at IS NOT NULL)`;
  const inProgress = sql<boolean>`(NOT ${complete} AND coalesce(m.certifying, 0) > 0)`;
  if (shape.certification === 'complete') query = query.where(complete);
  else if (shape.certification === 'in-progress') query = query.where(inProgress);
  else if (shape.certification === 'none') query = query.where(sql<boolean>`NOT ${complete} AND NOT ${inProgress}`);
  return query;
}

/** A keyset seek as the statement takes it: the sort key's and the e-mail's text (and the member id in a district). */
export interface SeekValues {
  key: string;
  email: string;
  id?: string;
}

/** A TeacherSeek's text. Node's UTF-8 decoding keeps every character (a leading U+FEFF too). */
export function seekValues(seek: TeacherSeek): SeekValues {
  return { key: Buffer.from(seek.key).toString('utf8'), email: Buffer.from(seek.email).toString('utf8'), ...(seek.id !== undefined ? { id: seek.id } : {}) };
}

/**
 * The filtered rows joined to their licence, in the list's order (reversed when `reverse`: a `before` page
 * reads backwards from its seek), starting after `seek` when given. Nothing selected yet: the page selects the
 * member columns, the export its CSV line.
 */
export function orderedTeachers(db: Kysely<DB>, filter: TeacherFilter, sort: TeacherSort, seek?: TeacherSeek | null, reverse = false) {
  const { shape, values } = filterOf(filter);
  return orderedRows(db, shape, values, sort, seek ? seekValues(seek) : null, reverse);
}

export function orderedRows(db: Kysely<DB>, shape: FilterShape, v: FilterValues, sort: TeacherSort, seek: SeekValues | null, reverse = false) {
  const { order, after } = keysetOrder(sort, sortExpressions[sort.key].expr, sql.raw('m.email'), shape.district ? sql.raw('m.id') : null, seek, reverse);
  const query = filtered(db, shape, v).leftJoin('licenses as l', 'l.id', 'm.license_id');
  return (after ? query.where(after) : query).orderBy(order);
}

/**
 * The list's order over a sort key and an e-mail (the members' own columns, or the matches' read once;
 * teachers-page.repository.ts), then the member id in a district's list (`id`), reversed when `reverse`, and the
 * condition that starts a page after `seek`.
 */
export function keysetOrder(
  sort: TeacherSort,
  key: RawBuilder<unknown>,
  email: RawBuilder<unknown>,
  id: RawBuilder<unknown> | null,
  seek: SeekValues | null,
  reverse: boolean,
) {
  const descending = (sort.dir === 'desc') !== reverse;
  const dir = sql.raw(descending ? 'DESC' : 'ASC');
  // E-mail is unique per organisation: ordering by it alone lets PostgreSQL walk the (organisation_id, email) index.
  // Across a district's schools it is not, so the member id breaks the tie there.
  const columns = [...(sort.key === 'email' ? [] : [key]), email, ...(id ? [id] : [])];
  const order = sql.join(columns.map((c) => sql`${c} ${dir}`));
  if (!seek) return { order, after: null };
  const op = sql.raw(descending ? '<' : '>');
  // Plain parameters: a comparison with a function of a parameter is not used as an index condition, and each
  // page would then walk the index from the start.
  const values = [
    ...(sort.key === 'email' ? [] : [sql`${seek.key}::${sql.raw(sortExpressions[sort.key].type)}`]),
    sql`${seek.email}::text`,
    ...(id ? [sql`${seek.id ?? ''}::text`] : []),
  ];
  // A row comparison matching the index columns, so each page starts with an index seek.
  const after = columns.length === 1 ? sql<boolean>`${columns[0]} ${op} ${values[0]}` : sql<boolean>`(${sql.join(columns)}) ${op} (${sql.join(values)})`;
  return { order, after };
}

/** The columns a later page or batch starts from (TeacherSeek): the sort key's and the e-mail's bytes, and the member id. */
export function seekColumns(sort: TeacherSort) {
  return [
    sql<Uint8Array>`convert_to((${sortExpressions[sort.key].expr})::text, 'UTF8')`.as('seek_key'),
    sql<Uint8Array>`convert_to(m.email, 'UTF8')`.as('seek_email'),
    sql<string>`m.id`.as('seek_id'),
  ];
}

/** The name of the member's organisation: the School column of a district's list. */
export const organisationNameColumn = sql<string | null>`(SELECT o.name FROM organisations AS o WHERE o.id = m.organisation_id)`;

/**
 * The role the student information system gives the member, when a OneRoster import manages them: read by the
 * roster's unique index on the member (one import source manages a member at most), for the page's rows only.
 */
export const rosterRoleColumn = sql<string | null>`(SELECT r.role FROM roster_members AS r WHERE r.member_organisation_id = m.organisation_id AND r.member_id = m.id)`;

/** The member and licence columns the list shows. */
export const teacherColumns = [
  'm.id', 'm.organisation_id', 'm.user_id', 'm.email', 'm.display_name', 'm.role', 'm.license_id', 'm.pending', 'm.calevel1_at',
  'm.calevel2_at', 'm.certifying', 'm.is_ambassador', 'm.is_student', 'm.revoked_at', 'm.signed_up_at',
  'l.name as license_name', 'l.book_quota', 'l.library_quota', 'l.apply_to_all', rosterRoleColumn.as('roster_role'),
] as const;

/** The member and licence columns the list shows, and the seek; a district's list adds each teacher's school. */
export function selectTeacherColumns(query: ReturnType<typeof orderedRows>, sort: TeacherSort, district = false) {
  const selected = query.select([...teacherColumns, ...seekColumns(sort)]);
  return district ? selected.select(organisationNameColumn.as('organisation_name')) : selected;
}

/** The whole list (admins' unpaged answer). */
export async function listTeachers(db: Kysely<DB>, filter: TeacherFilter, sort: TeacherSort): Promise<TeacherRow[]> {
  const { shape, values } = filterOf(filter);
  return (await selectTeacherColumns(orderedRows(db, shape, values, sort, null), sort, shape.district).execute()) as TeacherRow[];
}

/** Whether the total needs counting rows: member_counts answers the tab, Signed up and License, not a search or Certification. */
export function countsRows(shape: FilterShape): boolean {
  return shape.search || shape.certification !== null;
}

/**
 * How many teachers match, as one scalar query. The tab, Signed up and License filters are answered from
 * member_counts (kept by triggers, migration 0010): a few rows, whatever the organisation's size. A search or
 * the Certification filter counts the matching rows.
 */
export function totalQuery(db: Kysely<DB>, shape: FilterShape, v: FilterValues) {
  if (countsRows(shape)) {
    return filtered(db, shape, v).select((eb) => eb.fn.countAll<number>().as('n'));
  }
  let query = db
    .selectFrom('member_counts')
    .select(sql<number>`coalesce(sum(teachers), 0)::bigint`.as('n'))
    .where('organisation_id', shape.district ? 'in' : '=', shape.district ? listOrganisations(db, shape, v) : v.organisationId)
    .where('revoked', '=', shape.status === 'inactive');
  if (shape.signedUp) query = query.where('pending', '=', v.pending!);
  if (shape.license === 'none') query = query.where('license_id', '=', sql.lit(''));
  else if (shape.license === 'one') query = query.where('license_id', '=', v.licenseId!);
  return query;
}

/**
 * The ids of every teacher the filter matches, rows locked for the rest of the caller's transaction: the set a
 * bulk action on 'all n teachers' changes, so no teacher joins or leaves it until the change commits.
 */
export async function lockTeacherIds(db: Kysely<DB>, filter: TeacherFilter): Promise<Array<{ id: string; organisationId: string }>> {
  const { shape, values } = filterOf(filter);
  const rows = await filtered(db, shape, values).select(['m.id', 'm.organisation_id']).orderBy('m.id').forUpdate('m').execute();
  return rows.map((r) => ({ id: r.id, organisationId: r.organisation_id }));
}

/** @internal */
export async function countTeachers(db: Kysely<DB>, filter: TeacherFilter): Promise<number> {
  const { shape, values } = filterOf(filter);
  const row = await totalQuery(db, shape, values).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which rows a page holds: by position (page numbers), or after / before a keyset seek (cursors). */
export type TeacherWindow =
  | { limit: number; offset: number }
  | { limit: number; after: TeacherSeek }
  | { limit: number; before: TeacherSeek };
