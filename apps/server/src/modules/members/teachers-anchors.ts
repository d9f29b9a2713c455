import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import { filtered, keysetOrder, listOrganisations, seekColumns, sortExpressions, type FilterShape, type FilterValues, type SeekValues, type TeacherSort } from './teachers-list.repository.js';

/**
 * Anchors for a page asked for by number (docs/performance.md, "Teachers"). OFFSET reads and skips every row before
 * the page; from an anchor — the sort key, e-mail (and member id) of every ANCHOR_STEP-th row of the list — a page is
 * an index seek and at most ANCHOR_STEP − 1 rows skipped, whatever its number.
 *
 * An organisation's anchors are exact only for the list they were read from. `member_list_versions` (migration 0014)
 * holds a version per organisation, bumped in the same transaction by every statement that writes its members (or
 * changes the quotas its licence order sorts by); anchors are kept with the version they were read at, and a page
 * uses them only when the version it reads in its own statement is still that one. Otherwise the page is read by
 * OFFSET (from the nearer end, as before) and the anchors are read again. A district's version is the list of its
 * organisations' versions and names, so a school moving in or out of it, or renamed, also makes its anchors stale.
 *
 * Kept in the process (each server copy its own, small: 1,000 anchors for 100,000 teachers): nothing but speed
 * depends on them.
 */

/** Rows between anchors: every page size (10, 20, 50, 100) divides it, so a page of 100 starts on an anchor. */
export const ANCHOR_STEP = 100;

/** Lists kept per database: one per organisation, tab, filter and order recently paged by number. */
const MAX_LISTS = 500;

export interface Anchors {
  version: string;
  /** anchors[i - 1]: the seek of row i × ANCHOR_STEP − 1 (0-based), the row just before position i × ANCHOR_STEP. */
  anchors: SeekValues[];
}

/** The version of the organisation's list (its own members, or with district scope every organisation's under it). */
export function listVersion(db: Kysely<DB>, shape: Pick<FilterShape, 'district'>, v: Pick<FilterValues, 'organisationId'>): RawBuilder<string> {
  if (!shape.district) {
    return sql<string>`coalesce((SELECT mv.version::text FROM member_list_versions AS mv WHERE mv.organisation_id = ${v.organisationId}), '0')`;
  }
  // Every organisation of the tree with its version and its name: a write in any of them, a school moved in or out, or
  // a school renamed (the School order) changes it. Hashed: a district of hundreds of schools gives a short text.
  const tree = listOrganisations(db, { district: true, school: false }, v);
  return sql<string>`(SELECT md5(coalesce(string_agg(t.organisation_id || ':' || coalesce(mv.version, 0)::text || ':' || o.name, ',' ORDER BY t.organisation_id), ''))
    FROM (${tree}) AS t JOIN organisations AS o ON o.id = t.organisation_id LEFT JOIN member_list_versions AS mv ON mv.organisation_id = t.organisation_id)`;
}

const caches = new WeakMap<object, Map<string, Anchors>>();
const reading = new WeakMap<object, Map<string, Promise<unknown>>>();

function readingOf(db: Kysely<DB>): Map<string, Promise<unknown>> {
  let map = reading.get(db);
  if (!map) reading.set(db, (map = new Map()));
  return map;
}

/**
 * Reads a list's anchors after the page that needed them has been answered, once however many pages ask meanwhile: the
 * page read by OFFSET costs what it cost before anchors, and the pages after it start from the anchors. A failure only
 * leaves the list without anchors (pages by OFFSET).
 */
export function readAnchorsLater(db: Kysely<DB>, key: string, shape: FilterShape, v: FilterValues, sort: TeacherSort): void {
  const inFlight = readingOf(db);
  if (inFlight.has(key)) return;
  const done = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => readAnchors(db, key, shape, v, sort))
    .catch(() => undefined)
    .finally(() => inFlight.delete(key));
  inFlight.set(key, done);
}

/** Resolves once every anchor read under way has finished (the tests wait for it before they look at the anchors). @internal */
export async function anchorsSettled(db: Kysely<DB>): Promise<void> {
  await Promise.all([...readingOf(db).values()]);
}

function cacheOf(db: Kysely<DB>): Map<string, Anchors> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

/** The anchors kept for a list (key: its filter, values and order), most recently used last. */
export function keptAnchors(db: Kysely<DB>, key: string): Anchors | undefined {
  const cache = cacheOf(db);
  const found = cache.get(key);
  if (found) {
    cache.delete(key);
    cache.set(key, found);
  }
  return found;
}

export function forgetAnchors(db: Kysely<DB>, key: string): void {
  cacheOf(db).delete(key);
}

/**
 * Reads a list's anchors and its version in one statement (one snapshot: the anchors belong to that version) and
 * keeps them. One ordered pass over the list, paid once per version instead of an OFFSET walk per page.
 */
async function readAnchors(db: Kysely<DB>, key: string, shape: FilterShape, v: FilterValues, sort: TeacherSort): Promise<Anchors> {
  // The window's order is the list's: the same expression as the page's ORDER BY.
  const { order } = keysetOrder(sort, sortExpressions[sort.key].expr, sql.raw('m.email'), shape.district ? sql.raw('m.id') : null, null, false);
  const numbered = filtered(db, shape, v)
    .leftJoin('licenses as l', 'l.id', 'm.license_id')
    .select([...seekColumns(sort), sql<number>`row_number() OVER (ORDER BY ${order})`.as('rn')]);
  const { rows } = await sql<{ version: string; seek_key: Uint8Array | null; seek_email: Uint8Array | null; seek_id: string | null }>`
    WITH version AS MATERIALIZED (SELECT ${listVersion(db, shape, v)} AS v),
    anchors AS (SELECT x.seek_key, x.seek_email, x.seek_id, x.rn FROM (${numbered}) AS x WHERE x.rn % ${sql.lit(ANCHOR_STEP)} = 0)
    SELECT (SELECT v FROM version) AS version, a.seek_key, a.seek_email, a.seek_id
    FROM (SELECT 1) AS one LEFT JOIN anchors AS a ON true
    ORDER BY a.rn`.execute(db);
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
  const anchors: Anchors = {
    version: rows[0]?.version ?? '',
    anchors: rows.filter((r) => r.seek_key && r.seek_email && r.seek_id).map((r) => ({ key: text(r.seek_key!), email: text(r.seek_email!), id: r.seek_id! })),
  };
  const cache = cacheOf(db);
  cache.delete(key);
  cache.set(key, anchors);
  while (cache.size > MAX_LISTS) cache.delete(cache.keys().next().value!);
  return anchors;
}
