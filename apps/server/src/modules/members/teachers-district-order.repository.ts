import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/types.js';
import {
  filtered,
  keysetOrder,
  listOrganisations,
  sortExpressions,
  type FilterShape,
  type FilterValues,
  type SeekValues,
  type TeacherSort,
  type orderedRows,
} from './teachers-list.repository.js';

// A district's page of teachers read school by school: each organisation's first rows from an index of its own, then
// merged (docs/districts.md, "District views: Teachers"). The list's one ordered read is teachers-list.repository.ts.

/**
 * Whether a district's page in this order is read school by school (orderedRowsBySchool): every order the console
 * offers on the tab, each kept per organisation by an index of the tab (migrations 0001, 0002 and 0030): e-mail
 * (members_active_email_idx, members_inactive_email_idx), name (members_teachers_name_idx, members_removed_name_idx),
 * Signed up on the Active tab (members_signed_up_idx), Removed on the Inactive tab (members_removed_at_idx), License on
 * the Active tab (members_license_email_idx, per licence) and School (the e-mail index: one school, one key). An order
 * the console does not offer on the tab (Removed on the Active tab, Signed up or License on the Inactive tab) has no
 * such index: it keeps the one ordered read of the district's matches.
 */
export function readsBySchool(shape: FilterShape, sort: TeacherSort): boolean {
  if (!shape.district) return false;
  switch (sort.key) {
    case 'email':
    case 'name':
    case 'school':
      return true;
    case 'signedUp':
    case 'license':
      return shape.status === 'active';
    case 'removed':
      return shape.status === 'inactive';
  }
}

/**
 * A district's rows in the list's order, as orderedRows gives them, for a window of at most `perSchool` rows from its
 * start or seek: the first `perSchool` of EACH organisation of the district (a LATERAL subquery per organisation, an
 * index scan of its own order that stops after `perSchool` rows), then ordered together. The window's rows are among
 * them: a row of the window has fewer than `perSchool` rows before it in the whole list, so fewer in its own school.
 * PostgreSQL then reads 50 × `perSchool` rows for a district of 50 schools instead of every match (docs/performance.md,
 * "Districts"). Within one organisation the e-mail is unique, so the sort key and e-mail order its rows; the member id
 * orders the merged rows. The subquery is named `m`, with every member column, so the list's expressions (sort keys,
 * columns, seek) read it as they read members. Only for readsBySchool orders.
 */
export function orderedRowsBySchool(db: Kysely<DB>, shape: FilterShape, v: FilterValues, sort: TeacherSort, seek: SeekValues | null, reverse: boolean, perSchool: number) {
  if (sort.key === 'school' || sort.key === 'license') return orderedRowsByGroup(db, shape, v, { key: sort.key, dir: sort.dir }, seek, reverse, perSchool);
  const key = sortExpressions[sort.key].expr;
  const { order, after } = keysetOrder(sort, key, sql.raw('m.email'), sql.raw('m.id'), seek, reverse);
  const { order: schoolOrder } = keysetOrder(sort, key, sql.raw('m.email'), null, null, reverse);
  let bySchool = filtered(db, shape, v, sql<string>`s.organisation_id`).selectAll('m');
  if (after) bySchool = bySchool.where(after);
  // The window's rows (the first perSchool of them all) before the licence is joined: joined inside the loop over the
  // schools, PostgreSQL hashed the licences once per school.
  const merged = db
    .selectFrom(listOrganisations(db, shape, v).as('s'))
    .innerJoinLateral(bySchool.orderBy(schoolOrder).limit(perSchool).as('m'), (join) => join.onTrue())
    .selectAll('m')
    .orderBy(order)
    .limit(perSchool);
  const query = db.selectFrom(merged.as('m')).leftJoin('licenses as l', 'l.id', 'm.license_id').orderBy(order);
  // The same tables under the same names as orderedRows' (m: every member column, l: the licence), so the page selects
  // its columns from either the same way.
  return query as unknown as ReturnType<typeof orderedRows>;
}

/**
 * The groups of a district's teachers that share one sort key, with that key: for School, each organisation of the
 * district (its name); for License, each licence of each organisation and its teachers without one ('', -1), only the
 * licence the License filter names (or none) when it names one.
 */
function groupsOf(db: Kysely<DB>, shape: FilterShape, v: FilterValues, key: 'school' | 'license') {
  const organisations = listOrganisations(db, shape, v);
  if (key === 'school') {
    return sql`SELECT s.organisation_id, lower(o.name) AS sort_key FROM (${organisations}) AS s JOIN organisations AS o ON o.id = s.organisation_id`;
  }
  const held = shape.license === 'one' ? sql`AND gl.id = ${v.licenseId!}` : sql``;
  const licences =
    shape.license === 'none'
      ? sql`SELECT NULL::text AS id, NULL::integer AS book_quota, NULL::integer AS library_quota`
      : sql`SELECT gl.id, gl.book_quota, gl.library_quota FROM licenses AS gl WHERE gl.organisation_id = s.organisation_id ${held}
          ${shape.license === 'one' ? sql`` : sql`UNION ALL SELECT NULL::text, NULL::integer, NULL::integer`}`;
  return sql`
    SELECT s.organisation_id, coalesce(l.id, '') AS license_key, coalesce(l.book_quota * coalesce(l.library_quota, 1), -1) AS sort_key
    FROM (${organisations}) AS s CROSS JOIN LATERAL (${licences}) AS l`;
}

/**
 * orderedRowsBySchool for the orders whose key is the same for a whole group of a school's teachers: School (the
 * organisation's name: one group an organisation) and License (the licence's size: a group per licence of the
 * organisation, and one of its teachers without a licence; groupsOf). Within a group the list's order is the e-mail's
 * (then the member id), so each group's first `perSchool` rows come from an e-mail index (the tab's, or
 * members_license_email_idx) with the key taken from the group, not from each row: from a seek, the groups whose key is
 * before the seek's are not read at all, those after it from their start, and those with the seek's key from the seek's
 * e-mail on (an index condition). Then ordered together and cut, as orderedRowsBySchool does.
 */
function orderedRowsByGroup(db: Kysely<DB>, shape: FilterShape, v: FilterValues, sort: { key: 'school' | 'license'; dir: TeacherSort['dir'] }, seek: SeekValues | null, reverse: boolean, perSchool: number) {
  const byEmail: TeacherSort = { key: 'email', dir: sort.dir };
  const email = sql.raw('m.email');
  const { order: inGroup } = keysetOrder(byEmail, email, email, null, null, reverse);
  const rowsOf = (from: SeekValues | null) => {
    let rows = filtered(db, shape, v, sql<string>`g.organisation_id`).selectAll('m');
    if (sort.key === 'license') rows = rows.where(sql<boolean>`coalesce(m.license_id, '') = g.license_key`);
    const { after } = keysetOrder(byEmail, email, email, sql.raw('m.id'), from, reverse);
    if (after) rows = rows.where(after);
    return rows.orderBy(inGroup).limit(perSchool);
  };
  const groups = groupsOf(db, shape, v, sort.key);
  const branch = (from: SeekValues | null, where: RawBuilder<boolean> | null) =>
    sql`SELECT g.sort_key AS group_key, m.* FROM (${groups}) AS g CROSS JOIN LATERAL (${rowsOf(from)}) AS m${where ? sql` WHERE ${where}` : sql``}`;
  let rows;
  if (seek) {
    const descending = (sort.dir === 'desc') !== reverse;
    const seekKey = sql`${seek.key}::${sql.raw(sortExpressions[sort.key].type)}`;
    rows = sql`${branch(seek, sql<boolean>`g.sort_key = ${seekKey}`)} UNION ALL ${branch(null, sql<boolean>`g.sort_key ${sql.raw(descending ? '<' : '>')} ${seekKey}`)}`;
  } else {
    rows = branch(null, null);
  }
  const { order } = keysetOrder(sort, sql.raw('m.group_key'), email, sql.raw('m.id'), null, reverse);
  const merged = sql<DB['members'] & { group_key: unknown }>`(SELECT m.* FROM (${rows}) AS m ORDER BY ${order} LIMIT ${perSchool})`;
  // The licence is joined after the window is cut, as in orderedRowsBySchool; the page reads each row's key again there.
  const query = db
    .selectFrom(merged.as('m'))
    .leftJoin('licenses as l', 'l.id', 'm.license_id')
    .orderBy(keysetOrder(sort, sortExpressions[sort.key].expr, email, sql.raw('m.id'), null, reverse).order);
  return query as unknown as ReturnType<typeof orderedRows>;
}
