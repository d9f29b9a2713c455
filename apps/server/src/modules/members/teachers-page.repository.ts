import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import { StatementShapes } from '../../db/statement-shapes.js';
import { sessionOrgAccessRow, type AccessRow } from '../access/org-access.js';
import { ANCHOR_STEP, forgetAnchors, keptAnchors, listVersion, readAnchorsLater } from './teachers-anchors.js';
import {
  countsRows, filtered, filterOf, keysetOrder, orderedRows, organisationNameColumn, selectTeacherColumns, seekValues, sortExpressions, teacherColumns, totalQuery,
  type FilterShape, type FilterValues, type SeekValues, type TeacherFilter, type TeacherRow, type TeacherSort, type TeacherWindow,
} from './teachers-list.repository.js';
import { orderedRowsBySchool, readsBySchool } from './teachers-district-order.repository.js';

/**
 * One page of the Teachers list with its total and the caller's access, in one statement (members.service.ts), built
 * from the list query's parts (teachers-list.repository.ts). Measured in docs/performance.md ("Teachers list and
 * export"; its history in docs/performance-log.md).
 */

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
function pageOfMatches(db: Kysely<DB>, shape: FilterShape, sort: TeacherSort, seek: SeekValues | null, reverse: boolean, limit: number, offset: number | null) {
  const { order, after } = keysetOrder(sort, sql.raw('x.sort_key'), sql.raw('x.email'), shape.district ? sql.raw('x.id') : null, seek, reverse);
  const mdb = db.withTables<{ matches: { id: string; sort_key: unknown; email: string } }>();
  let window = mdb.selectFrom('matches as x').selectAll('x');
  if (after) window = window.where(after);
  window = window.orderBy(order).limit(limit);
  if (offset !== null) window = window.offset(offset);
  const page = mdb
    .selectFrom(window.as('x'))
    .innerJoin('members as m', 'm.id', 'x.id')
    .leftJoin('licenses as l', 'l.id', 'm.license_id')
    .select([
      ...teacherColumns,
      sql<Uint8Array>`convert_to(x.sort_key::text, 'UTF8')`.as('seek_key'),
      sql<Uint8Array>`convert_to(x.email, 'UTF8')`.as('seek_email'),
      sql<string>`x.id`.as('seek_id'),
    ])
    .orderBy(order);
  return shape.district ? page.select(organisationNameColumn.as('organisation_name')) : page;
}

/**
 * A search short enough to be likely to match many rows (up to five characters: a name, a word), without the
 * Certification filter, in an order an index keeps (e-mail, name): its first or cursor page walks that index and stops
 * after the page, and its total is counted on its own, as two plain queries would. A longer search is likely to match
 * few: its matches are read once, for the total and the page (see readTeachersPage). "smith" matches 14 % of a
 * 100,000-teacher district: reading and sorting its 14,000 matches cost a quarter more than counting them and walking
 * the index (docs/performance-log.md, "Teachers").
 */
function broadSearch(filter: TeacherFilter, sort: TeacherSort): boolean {
  const search = filter.search?.trim() ?? '';
  return search.length > 0 && search.length <= 5 && !filter.certification && (sort.key === 'email' || sort.key === 'name');
}

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
  window: 'first' | 'offset' | 'after' | 'before' | 'anchored';
  /**
   * matches: a search or Certification, its matches read once (for the total and the page); offset: a later page by
   * number of the whole list; anchored: the same from the anchor before it (teachers-anchors.ts); walk: the first or
   * a keyset page, walking the order's index.
   */
  plan: 'matches' | 'offset' | 'anchored' | 'walk';
  /** anchored: from the start of the list (the page's anchor is row 0) or after an anchor. */
  fromAnchor?: boolean;
}

/** A page statement's values: the filter's, the window's (with what is derived from them), and the caller's session. */
interface PageValues extends FilterValues {
  /** Rows to read: the page and one more (to know whether more follow), or exactly the page (plan offset). */
  limit: number;
  offset?: number;
  /** offset + the page size, and offset × 2 (plan offset: which end of the list is nearer). */
  offsetEnd?: number;
  offsetTwice?: number;
  /** A district's page read school by school (readsBySchool; plans walk and anchored): the rows read of each organisation. */
  perSchool?: number;
  seekKey?: string;
  seekEmail?: string;
  seekId?: string;
  /** anchored: the list's version the anchors belong to. */
  version?: string;
  token?: string;
  /** Sessions expiring before this are not live. */
  now?: Date;
}

type PageAnswer<Level extends string> = Partial<TeacherRow> & { level: Level | null; actor_id: string | null; total: number; n: number | null; version?: string | null };

/** Who may read the page: anyone with access to the organisation; a district's list, its admins only. */
function allowedSql(filter: FilterShape) {
  return filter.district ? sql<boolean>`(SELECT level FROM access) = 'admin'` : sql<boolean>`(SELECT level FROM access) IS NOT NULL`;
}

/**
 * The page statement (see readTeachersPage), from its shape and its values, given as values or as slots: the access
 * CTE gates the rest, so a caller without access reads nothing.
 */
function pageStatement<Level extends string>(db: Kysely<DB>, shape: PageShape, v: PageValues, access: RawBuilder<AccessRow<Level>>) {
  const { filter, sort } = shape;
  const seek =
    shape.window === 'after' || shape.window === 'before' || (shape.plan === 'anchored' && shape.fromAnchor)
      ? { key: v.seekKey!, email: v.seekEmail!, ...(filter.district ? { id: v.seekId! } : {}) }
      : null;
  const reverse = shape.window === 'before';
  const allowed = allowedSql(filter);
  // The rows of a window from the start or a seek: a district's, in an order each school keeps in an index, school by
  // school (v.perSchool of each: the window's rows, and those it skips).
  const ordered = (from: SeekValues | null, backwards: boolean) =>
    readsBySchool(filter, sort) ? orderedRowsBySchool(db, filter, v, sort, from, backwards, v.perSchool!) : orderedRows(db, filter, v, sort, from, backwards);
  if (shape.plan === 'matches') {
    // A search or Certification: the rows matched are read once, for the total and for the page (a selective search
    // would otherwise scan its trigram indexes twice).
    const page = pageOfMatches(db, filter, sort, seek, reverse, v.limit, shape.window === 'offset' ? v.offset! : null);
    return sql<PageAnswer<Level>>`
      WITH access AS MATERIALIZED (${access}),
      matches AS MATERIALIZED ${matchingTeachers(db, filter, v, sort)},
      page AS (SELECT p.*, row_number() OVER () AS n FROM ${page} AS p WHERE ${allowed})
      SELECT a.level, a.actor_id, CASE WHEN ${allowed} THEN (SELECT count(*) FROM matches) ELSE 0 END AS total, page.*
      FROM access AS a LEFT JOIN page ON true
      ORDER BY page.n`;
  }
  if (shape.plan === 'anchored') {
    // A page by number from the anchor before it: an index seek and fewer than ANCHOR_STEP rows skipped. Only while the
    // list is still the one the anchors were read from (its version, read here); else nothing, and the caller reads the
    // page by OFFSET.
    const current = sql<boolean>`(SELECT v FROM version) = ${v.version!}::text`;
    const page = selectTeacherColumns(ordered(seek, false), sort, filter.district).limit(v.limit).offset(v.offset!);
    return sql<PageAnswer<Level>>`
      WITH access AS MATERIALIZED (${access}),
      version AS MATERIALIZED (SELECT ${listVersion(db, filter, v)} AS v),
      page AS (SELECT p.*, row_number() OVER () AS n FROM ${page} AS p WHERE ${allowed} AND ${current})
      SELECT a.level, a.actor_id, (SELECT v FROM version) AS version,
        CASE WHEN ${allowed} AND ${current} THEN ${totalQuery(db, filter, v)} ELSE 0 END AS total, page.*
      FROM access AS a LEFT JOIN page ON true
      ORDER BY page.n`;
  }
  if (shape.plan === 'offset') {
    // A page by number: read from the nearer end of the list, so the last page costs what the first does (OFFSET
    // walks every row it skips). The total (member_counts, a few rows) decides which end, inside the statement:
    // each branch's condition has no column in it, so PostgreSQL runs only the branch whose condition holds.
    const totalRows = sql<number>`(SELECT rows_total FROM total)`;
    const forward = selectTeacherColumns(orderedRows(db, filter, v, sort, null), sort, filter.district).limit(v.limit).offset(v.offset!);
    // Rows offset … min(offset + limit, total) - 1 in list order, read in the reverse order: the rows after them
    // skipped, then as many as the page holds (none past the end).
    const backward = selectTeacherColumns(orderedRows(db, filter, v, sort, null, true), sort, filter.district)
      .limit(sql<number>`greatest(least(${v.offsetEnd!}::bigint, ${totalRows}) - ${v.offset!}::bigint, 0)`)
      .offset(sql<number>`greatest(${totalRows} - ${v.offsetEnd!}::bigint, 0)`);
    return sql<PageAnswer<Level>>`
      WITH access AS MATERIALIZED (${access}),
      total AS MATERIALIZED (SELECT CASE WHEN ${allowed} THEN ${totalQuery(db, filter, v)} ELSE 0 END AS rows_total),
      page AS (
        SELECT p.*, row_number() OVER () AS n FROM ${forward} AS p
        WHERE ${allowed} AND ${v.offsetTwice!}::bigint <= ${totalRows}
        UNION ALL
        SELECT p.*, -row_number() OVER () AS n FROM ${backward} AS p
        WHERE ${allowed} AND ${v.offsetTwice!}::bigint > ${totalRows}
      )
      SELECT a.level, a.actor_id, ${totalRows} AS total, page.*
      FROM access AS a LEFT JOIN page ON true
      ORDER BY page.n`;
  }
  const page = selectTeacherColumns(ordered(seek, reverse), sort, filter.district).limit(v.limit);
  return sql<PageAnswer<Level>>`
    WITH access AS MATERIALIZED (${access}),
    page AS (SELECT p.*, row_number() OVER () AS n FROM ${page} AS p WHERE ${allowed})
    SELECT a.level, a.actor_id, CASE WHEN ${allowed} THEN ${totalQuery(db, filter, v)} ELSE 0 END AS total, page.*
    FROM access AS a LEFT JOIN page ON true
    ORDER BY page.n`;
}

/**
 * The page statements of callers known by their session: built and compiled once per shape, then given each request's
 * values. Building and compiling this statement was a fifth of the server's CPU time for a page
 * (docs/performance-log.md).
 */
const sessionPages = new StatementShapes<DB, PageShape, PageValues, PageAnswer<string>>((db, shape, slots) =>
  pageStatement(db, shape, slots, sessionOrgAccessRow(db, slots.token!, slots.organisationId, slots.now!)),
);

/** Lists at most this long are not worth anchors: OFFSET from the nearer end skips at most half of it. */
const ANCHORED_FROM = ANCHOR_STEP * 4;

/**
 * One page of the list with its total and the caller's access level, in ONE statement: the access expression
 * gates the rest, so a caller without access reads nothing. Under load, what a page costs is the connection
 * time it holds; one statement instead of four (access, admins/manager, page, count) is most of the gain.
 *
 * A page by number of the whole list (no search or Certification) starts from the anchor before it when the list's
 * anchors are kept and still current (teachers-anchors.ts); otherwise it is read by OFFSET from the nearer end and the
 * anchors are read for the next one.
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
  const run = async (shape: PageShape, values: PageValues) => {
    const { rows } =
      'token' in caller
        ? await sessionPages.execute(db, JSON.stringify(shape), shape, { ...values, token: caller.token, now: new Date() })
        : await pageStatement(db, shape, values, caller.access).execute(db);
    return rows;
  };
  const anchorKey = plan === 'offset' ? JSON.stringify([filter, filterValues, sort]) : null;
  const kept = anchorKey ? keptAnchors(db, anchorKey) : undefined;
  const anchorIndex = Math.floor(offset / ANCHOR_STEP);
  let rows: Array<PageAnswer<string>> | null = null;
  if (kept && anchorKey && anchorIndex <= kept.anchors.length) {
    const anchor = anchorIndex > 0 ? kept.anchors[anchorIndex - 1]! : null;
    const shape: PageShape = { filter, sort, window: 'anchored', plan: 'anchored', fromAnchor: anchor !== null };
    const answer = await run(shape, {
      ...filterValues,
      limit: window.limit + 1,
      offset: offset - anchorIndex * ANCHOR_STEP,
      perSchool: offset - anchorIndex * ANCHOR_STEP + window.limit + 1,
      version: kept.version,
      ...(anchor ? { seekKey: anchor.key, seekEmail: anchor.email, ...(filter.district ? { seekId: anchor.id! } : {}) } : {}),
    });
    // Another version: the list changed since the anchors were read; the page is read by OFFSET below.
    if (answer[0]?.version === kept.version || !answer[0]?.level) rows = answer;
    else forgetAnchors(db, anchorKey);
  }
  const anchored = rows !== null;
  if (!rows) {
    const shape: PageShape = { filter, sort, window: kind, plan };
    rows = await run(shape, {
      ...filterValues,
      limit: plan === 'offset' ? window.limit : window.limit + 1,
      perSchool: window.limit + 1,
      ...(kind === 'offset' ? { offset, offsetEnd: offset + window.limit, offsetTwice: offset * 2 } : {}),
      ...(seek ? (({ key, email, id }) => ({ seekKey: key, seekEmail: email, ...(filter.district ? { seekId: id ?? '' } : {}) }))(seekValues(seek)) : {}),
    });
  }
  const first = rows[0];
  const found = rows
    .filter((r) => r.n !== null && r.n !== undefined)
    .map(({ level: _l, actor_id: _a, total: _t, n: _n, version: _v, ...row }) => row as TeacherRow);
  const total = Number(first?.total ?? 0);
  // Read by OFFSET with access granted, in a list long enough: its anchors, for the next page by number (read after
  // this answer, so this page costs what OFFSET costs and no more).
  if (anchorKey && !anchored && first?.level && total >= ANCHORED_FROM) readAnchorsLater(db, anchorKey, filter, filterValues, sort);
  // A page by number of the whole list read by OFFSET reads exactly its rows (from either end): the total says whether more follow.
  const more = plan === 'offset' && !anchored ? offset + window.limit < total : found.length > window.limit;
  const shown = found.slice(0, window.limit);
  return { level: (first?.level ?? null) as Level | null, actorId: first?.actor_id ?? null, total, rows: kind === 'before' ? shown.reverse() : shown, more };
}
