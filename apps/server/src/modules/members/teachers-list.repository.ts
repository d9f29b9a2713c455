import type { SortDirection, TeacherSortKey, TeacherStatus, TeachersListParams } from '@quire/core';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import { StatementShapes } from '../../db/statement-shapes.js';
import { sessionOrgAccessRow, type AccessRow } from '../access/org-access.js';

/**
 * The Teachers list query, shared by the page (members.service.ts) and the CSV export
 * (teachers-csv.repository.ts): one filter, one order, one keyset. Every query filters on organisation_id,
 * the tenant boundary. Measured in docs/performance.md ("Teachers").
 */

/** Which teachers: the organisation, the tab, and the list's search and filters (the core list query's). */
export type TeacherFilter = { organisationId: string; status: TeacherStatus } & Pick<TeachersListParams, 'search' | 'signedUp' | 'license' | 'certification'>;

export interface TeacherSort {
  key: TeacherSortKey;
  dir: SortDirection;
}

/**
 * Where a keyset page starts: the sort key and e-mail of the row just before it (`after`) or just after it
 * (`before`), as the UTF-8 bytes of their text in the database. Bytes, because PGlite's text decoder drops a
 * leading U+FEFF: a key read back as text would then sort before its own row and the next batch would start
 * with the same rows again, for ever.
 */
export interface TeacherSeek {
  key: Uint8Array;
  email: Uint8Array;
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

/** What of a filter decides the SQL text (the values are bound apart: FilterValues; db/statement-shapes.ts). */
interface FilterShape {
  status: TeacherStatus;
  search: boolean;
  signedUp: boolean;
  license: 'none' | 'one' | null;
  certification: TeacherFilter['certification'] | null;
}

/** A filter's values, as the statement takes them (each is there when the shape uses it). */
interface FilterValues {
  organisationId: string;
  /** The search as a LIKE pattern. */
  pattern?: string;
  /** Signed up: No. */
  pending?: boolean;
  licenseId?: string;
}

function filterOf(filter: TeacherFilter): { shape: FilterShape; values: FilterValues } {
  const search = filter.search?.trim();
  return {
    shape: {
      status: filter.status,
      search: Boolean(search),
      signedUp: Boolean(filter.signedUp),
      license: filter.license === 'none' ? 'none' : filter.license ? 'one' : null,
      certification: filter.certification ?? null,
    },
    values: {
      organisationId: filter.organisationId,
      ...(search ? { pattern: likePattern(search) } : {}),
      ...(filter.signedUp ? { pending: filter.signedUp === 'no' } : {}),
      ...(filter.license && filter.license !== 'none' ? { licenseId: filter.license } : {}),
    },
  };
}

function filtered(db: Kysely<DB>, shape: FilterShape, v: FilterValues) {
  let query = db
    .selectFrom('members as m')
    .where('m.organisation_id', '=', v.organisationId)
    .where('m.is_student', '=', false)
    // Provider staff visiting a library for support are members, never the school's teachers (issue 15).
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

/** A keyset seek as the statement takes it: the sort key's and the e-mail's text. */
interface SeekValues {
  key: string;
  email: string;
}

/** A TeacherSeek's text. Node's UTF-8 decoding keeps every character (a leading U+FEFF too). */
function seekValues(seek: TeacherSeek): SeekValues {
  return { key: Buffer.from(seek.key).toString('utf8'), email: Buffer.from(seek.email).toString('utf8') };
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

function orderedRows(db: Kysely<DB>, shape: FilterShape, v: FilterValues, sort: TeacherSort, seek: SeekValues | null, reverse = false) {
  const { expr, type } = sortExpressions[sort.key];
  const descending = (sort.dir === 'desc') !== reverse;
  const dir = sql.raw(descending ? 'DESC' : 'ASC');
  let query = filtered(db, shape, v).leftJoin('licenses as l', 'l.id', 'm.license_id');
  if (seek) {
    const op = sql.raw(descending ? '<' : '>');
    // Plain parameters: a comparison with a function of a parameter is not used as an index condition, and each
    // page would then walk the index from the start.
    const email = sql`${seek.email}::text`;
    // A row comparison matching the index columns, so each page starts with an index seek.
    query = query.where(
      sort.key === 'email'
        ? sql<boolean>`m.email ${op} ${email}`
        : sql<boolean>`(${expr}, m.email) ${op} (${seek.key}::${sql.raw(type)}, ${email})`,
    );
  }
  // E-mail is unique per organisation: ordering by it alone lets PostgreSQL walk the (organisation_id, email) index.
  return query.orderBy(sort.key === 'email' ? sql`m.email ${dir}` : sql`${expr} ${dir}, m.email ${dir}`);
}

/** The columns a later page or batch starts from (TeacherSeek): the sort key's and the e-mail's bytes. */
export function seekColumns(sort: TeacherSort) {
  return [
    sql<Uint8Array>`convert_to((${sortExpressions[sort.key].expr})::text, 'UTF8')`.as('seek_key'),
    sql<Uint8Array>`convert_to(m.email, 'UTF8')`.as('seek_email'),
  ];
}

/** The member and licence columns the list shows. */
const teacherColumns = [
  'm.id', 'm.user_id', 'm.email', 'm.display_name', 'm.role', 'm.license_id', 'm.pending', 'm.calevel1_at',
  'm.calevel2_at', 'm.certifying', 'm.is_ambassador', 'm.is_student', 'm.revoked_at', 'm.signed_up_at',
  'l.name as license_name', 'l.book_quota', 'l.library_quota', 'l.apply_to_all',
] as const;

/** The member and licence columns the list shows, and the seek. */
function selectTeacherColumns(query: ReturnType<typeof orderedRows>, sort: TeacherSort) {
  return query.select([...teacherColumns, ...seekColumns(sort)]);
}

/** The rows a search or the Certification filter matches, read once: their id, sort key and e-mail (the CTE `matches`). */
function matchingTeachers(db: Kysely<DB>, shape: FilterShape, v: FilterValues, sort: TeacherSort) {
  return filtered(db, shape, v)
    .leftJoin('licenses as l', 'l.id', 'm.license_id')
    .select(['m.id', sortExpressions[sort.key].expr.as('sort_key'), 'm.email']);
}

/**
 * One window of `matches` in the list's order (as orderedTeachers, on the sort key read once): ordered and cut on
 * the matches alone, then joined to the page's columns, so only the page's rows are read again.
 */
function pageOfMatches(db: Kysely<DB>, sort: TeacherSort, seek: SeekValues | null, reverse: boolean, limit: number, offset: number | null) {
  const { type } = sortExpressions[sort.key];
  const descending = (sort.dir === 'desc') !== reverse;
  const dir = sql.raw(descending ? 'DESC' : 'ASC');
  const order = sort.key === 'email' ? sql`x.email ${dir}` : sql`x.sort_key ${dir}, x.email ${dir}`;
  const mdb = db.withTables<{ matches: { id: string; sort_key: unknown; email: string } }>();
  let window = mdb.selectFrom('matches as x').selectAll('x');
  if (seek) {
    const op = sql.raw(descending ? '<' : '>');
    const email = sql`${seek.email}::text`;
    window = window.where(
      sort.key === 'email'
        ? sql<boolean>`x.email ${op} ${email}`
        : sql<boolean>`(x.sort_key, x.email) ${op} (${seek.key}::${sql.raw(type)}, ${email})`,
    );
  }
  window = window.orderBy(order).limit(limit);
  if (offset !== null) window = window.offset(offset);
  return mdb
    .selectFrom(window.as('x'))
    .innerJoin('members as m', 'm.id', 'x.id')
    .leftJoin('licenses as l', 'l.id', 'm.license_id')
    .select([...teacherColumns, sql<Uint8Array>`convert_to(x.sort_key::text, 'UTF8')`.as('seek_key'), sql<Uint8Array>`convert_to(x.email, 'UTF8')`.as('seek_email')])
    .orderBy(order);
}

/** The whole list (admins' unpaged answer). */
export async function listTeachers(db: Kysely<DB>, filter: TeacherFilter, sort: TeacherSort): Promise<TeacherRow[]> {
  const { shape, values } = filterOf(filter);
  return (await selectTeacherColumns(orderedRows(db, shape, values, sort, null), sort).execute()) as TeacherRow[];
}

/**
 * A search short enough to be likely to match many rows (up to five characters: a name, a word), without the
 * Certification filter, in an order an index keeps (e-mail, name): its first or cursor page walks that index and stops
 * after the page, and its total is counted on its own, as two plain queries would. A longer search is likely to match
 * few: its matches are read once, for the total and the page (see readTeachersPage). "smith" matches 14 % of a
 * 100,000-teacher district: reading and sorting its 14,000 matches cost a quarter more than counting them and walking
 * the index (docs/performance.md).
 */
function broadSearch(filter: TeacherFilter, sort: TeacherSort): boolean {
  const search = filter.search?.trim() ?? '';
  return search.length > 0 && search.length <= 5 && !filter.certification && (sort.key === 'email' || sort.key === 'name');
}

/** Whether the total needs counting rows: member_counts answers the tab, Signed up and License, not a search or Certification. */
function countsRows(shape: FilterShape): boolean {
  return shape.search || shape.certification !== null;
}

/**
 * How many teachers match, as one scalar query. The tab, Signed up and License filters are answered from
 * member_counts (kept by triggers, migration 0010): a few rows, whatever the organisation's size. A search or
 * the Certification filter counts the matching rows.
 */
function totalQuery(db: Kysely<DB>, shape: FilterShape, v: FilterValues) {
  if (countsRows(shape)) {
    return filtered(db, shape, v).select((eb) => eb.fn.countAll<number>().as('n'));
  }
  let query = db
    .selectFrom('member_counts')
    .select(sql<number>`coalesce(sum(teachers), 0)::bigint`.as('n'))
    .where('organisation_id', '=', v.organisationId)
    .where('revoked', '=', shape.status === 'inactive');
  if (shape.signedUp) query = query.where('pending', '=', v.pending!);
  if (shape.license === 'none') query = query.where('license_id', '=', sql.lit(''));
  else if (shape.license === 'one') query = query.where('license_id', '=', v.licenseId!);
  return query;
}

/**
 * The ids of every teacher the filter matches, rows locked for the rest of the caller's transaction: the set a
 * bulk action on 'all n teachers' changes (issue 15), so no teacher joins or leaves it until the change commits.
 */
export async function lockTeacherIds(db: Kysely<DB>, filter: TeacherFilter): Promise<string[]> {
  const { shape, values } = filterOf(filter);
  const rows = await filtered(db, shape, values).select('m.id').orderBy('m.id').forUpdate().execute();
  return rows.map((r) => r.id);
}

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

export interface TeachersPage<Level extends string> {
  /** The caller's access, decided by the same statement; null: none (and nothing else was read). */
  level: Level | null;
  /** The caller's identity user, from the access row (null: the session it read named nobody). */
  actorId: string | null;
  total: number;
  /** The page's rows in list order. */
  rows: TeacherRow[];
  /** Whether rows follow the window in its reading direction (one more row was read to know). */
  more: boolean;
}

/** Who asks for a page: a signed cookie's session token (its session and access read in the page's statement), or an access row. */
export type PageCaller<Level extends string> = { token: string } | { access: RawBuilder<AccessRow<Level>> };

/** What decides a page statement's text (db/statement-shapes.ts). */
interface PageShape {
  filter: FilterShape;
  sort: TeacherSort;
  window: 'first' | 'offset' | 'after' | 'before';
  /**
   * matches: a search or Certification, its matches read once (for the total and the page); offset: a later page by
   * number of the whole list; walk: the first or a keyset page, walking the order's index.
   */
  plan: 'matches' | 'offset' | 'walk';
}

/** A page statement's values: the filter's, the window's (with what is derived from them), and the caller's session. */
interface PageValues extends FilterValues {
  /** Rows to read: the page and one more (to know whether more follow), or exactly the page (plan offset). */
  limit: number;
  offset?: number;
  /** offset + the page size, and offset × 2 (plan offset: which end of the list is nearer). */
  offsetEnd?: number;
  offsetTwice?: number;
  seekKey?: string;
  seekEmail?: string;
  token?: string;
  /** Sessions expiring before this are not live. */
  now?: Date;
}

type PageAnswer<Level extends string> = Partial<TeacherRow> & { level: Level | null; actor_id: string | null; total: number; n: number | null };

/**
 * The page statement (see readTeachersPage), from its shape and its values, given as values or as slots: the access
 * CTE gates the rest, so a caller without access reads nothing.
 */
function pageStatement<Level extends string>(db: Kysely<DB>, shape: PageShape, v: PageValues, access: RawBuilder<AccessRow<Level>>) {
  const { filter, sort } = shape;
  const seek = shape.window === 'after' || shape.window === 'before' ? { key: v.seekKey!, email: v.seekEmail! } : null;
  const reverse = shape.window === 'before';
  if (shape.plan === 'matches') {
    // A search or Certification: the rows matched are read once, for the total and for the page (a selective search
    // would otherwise scan its trigram indexes twice).
    const page = pageOfMatches(db, sort, seek, reverse, v.limit, shape.window === 'offset' ? v.offset! : null);
    return sql<PageAnswer<Level>>`
      WITH access AS MATERIALIZED (${access}),
      matches AS MATERIALIZED ${matchingTeachers(db, filter, v, sort)},
      page AS (SELECT p.*, row_number() OVER () AS n FROM ${page} AS p WHERE (SELECT level FROM access) IS NOT NULL)
      SELECT a.level, a.actor_id, CASE WHEN a.level IS NULL THEN 0 ELSE (SELECT count(*) FROM matches) END AS total, page.*
      FROM access AS a LEFT JOIN page ON true
      ORDER BY page.n`;
  }
  if (shape.plan === 'offset') {
    // A page by number: read from the nearer end of the list, so the last page costs what the first does (OFFSET
    // walks every row it skips). The total (member_counts, a few rows) decides which end, inside the statement:
    // each branch's condition has no column in it, so PostgreSQL runs only the branch whose condition holds.
    const totalRows = sql<number>`(SELECT rows_total FROM total)`;
    const forward = selectTeacherColumns(orderedRows(db, filter, v, sort, null), sort).limit(v.limit).offset(v.offset!);
    // Rows offset … min(offset + limit, total) - 1 in list order, read in the reverse order: the rows after them
    // skipped, then as many as the page holds (none past the end).
    const backward = selectTeacherColumns(orderedRows(db, filter, v, sort, null, true), sort)
      .limit(sql<number>`greatest(least(${v.offsetEnd!}::bigint, ${totalRows}) - ${v.offset!}::bigint, 0)`)
      .offset(sql<number>`greatest(${totalRows} - ${v.offsetEnd!}::bigint, 0)`);
    return sql<PageAnswer<Level>>`
      WITH access AS MATERIALIZED (${access}),
      total AS MATERIALIZED (SELECT CASE WHEN (SELECT level FROM access) IS NULL THEN 0 ELSE ${totalQuery(db, filter, v)} END AS rows_total),
      page AS (
        SELECT p.*, row_number() OVER () AS n FROM ${forward} AS p
        WHERE (SELECT level FROM access) IS NOT NULL AND ${v.offsetTwice!}::bigint <= ${totalRows}
        UNION ALL
        SELECT p.*, -row_number() OVER () AS n FROM ${backward} AS p
        WHERE (SELECT level FROM access) IS NOT NULL AND ${v.offsetTwice!}::bigint > ${totalRows}
      )
      SELECT a.level, a.actor_id, ${totalRows} AS total, page.*
      FROM access AS a LEFT JOIN page ON true
      ORDER BY page.n`;
  }
  const page = selectTeacherColumns(orderedRows(db, filter, v, sort, seek, reverse), sort).limit(v.limit);
  return sql<PageAnswer<Level>>`
    WITH access AS MATERIALIZED (${access}),
    page AS (SELECT p.*, row_number() OVER () AS n FROM ${page} AS p WHERE (SELECT level FROM access) IS NOT NULL)
    SELECT a.level, a.actor_id, CASE WHEN a.level IS NULL THEN 0 ELSE ${totalQuery(db, filter, v)} END AS total, page.*
    FROM access AS a LEFT JOIN page ON true
    ORDER BY page.n`;
}

/**
 * The page statements of callers known by their session: built and compiled once per shape, then given each request's
 * values. Building and compiling this statement was a fifth of the server's CPU time for a page (docs/performance.md).
 */
const sessionPages = new StatementShapes<DB, PageShape, PageValues, PageAnswer<string>>((db, shape, slots) =>
  pageStatement(db, shape, slots, sessionOrgAccessRow(db, slots.token!, slots.organisationId, slots.now!)),
);

/**
 * One page of the list with its total and the caller's access level, in ONE statement: the access expression
 * gates the rest, so a caller without access reads nothing. Under load, what a page costs is the connection
 * time it holds; one statement instead of four (access, admins/manager, page, count) is most of the gain.
 */
export async function readTeachersPage<Level extends string>(
  db: Kysely<DB>,
  caller: PageCaller<Level>,
  teachers: TeacherFilter,
  sort: TeacherSort,
  window: TeacherWindow,
): Promise<TeachersPage<Level>> {
  const { shape: filter, values: filterValues } = filterOf(teachers);
  const seek = 'after' in window ? window.after : 'before' in window ? window.before : null;
  const offset = 'offset' in window && window.offset > 0 ? window.offset : 0;
  const kind = 'after' in window ? 'after' : 'before' in window ? 'before' : offset > 0 ? 'offset' : 'first';
  const plan = countsRows(filter) && !(broadSearch(teachers, sort) && kind !== 'offset') ? 'matches' : kind === 'offset' ? 'offset' : 'walk';
  const shape: PageShape = { filter, sort, window: kind, plan };
  const values: PageValues = {
    ...filterValues,
    limit: plan === 'offset' ? window.limit : window.limit + 1,
    ...(kind === 'offset' ? { offset, offsetEnd: offset + window.limit, offsetTwice: offset * 2 } : {}),
    ...(seek ? (({ key, email }) => ({ seekKey: key, seekEmail: email }))(seekValues(seek)) : {}),
  };
  const { rows } =
    'token' in caller
      ? await sessionPages.execute(db, JSON.stringify(shape), shape, { ...values, token: caller.token, now: new Date() })
      : await pageStatement(db, shape, values, caller.access).execute(db);
  const first = rows[0];
  const found = rows.filter((r) => r.n !== null && r.n !== undefined).map(({ level: _l, actor_id: _a, total: _t, n: _n, ...row }) => row as TeacherRow);
  const total = Number(first?.total ?? 0);
  // A page by number of the whole list reads exactly its rows (from either end): the total says whether more follow.
  const more = plan === 'offset' ? offset + window.limit < total : found.length > window.limit;
  const shown = found.slice(0, window.limit);
  return { level: (first?.level ?? null) as Level | null, actorId: first?.actor_id ?? null, total, rows: kind === 'before' ? shown.reverse() : shown, more };
}
