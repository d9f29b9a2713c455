import { sql, type Kysely, type RawBuilder } from 'kysely';
import { CSV_BOM, csvRow, type TeacherStatus } from '@quire/core';
import { csvCell } from '../../db/csv-cell.js';
import { inlineSql } from '../../db/inline-sql.js';
import type { DB } from '../../db/types.js';
import { isDistrictFilter, orderedTeachers, organisationNameColumn, rosterRoleColumn, seekColumns, type TeacherFilter, type TeacherSeek, type TeacherSort, type TeacherWindow } from './teachers-list.repository.js';

/**
 * The Teachers CSV (spec §3 columns; docs/teachers-api.md), written by the database: each row's CSV record is
 * one SQL expression, so PostgreSQL streams the file with COPY and PGlite reads it in keyset batches, with the
 * same rules either way.
 */

/** The columns of the Active view's file, and of the Inactive view's (spec §2: a Removed date instead of Signed up and License). */
const CSV_COLUMNS = {
  active: ['Email', 'Name', 'Signed up', 'License', 'Certification'],
  inactive: ['Email', 'Name', 'Removed', 'Certification'],
} as const satisfies Record<TeacherStatus, readonly string[]>;

/**
 * A district's file: the same columns with each teacher's School after the Name, as its list shows it. A list with
 * teachers a OneRoster import manages: their Roster role last (the columns before it where every file has them).
 */
function csvColumns(status: TeacherStatus, district: boolean, rostered: boolean): readonly string[] {
  const [email, name, ...rest] = CSV_COLUMNS[status];
  const columns = district ? [email, name, 'School', ...rest] : CSV_COLUMNS[status];
  return rostered ? [...columns, 'Roster role'] : columns;
}

/** Whether any teacher of the list's organisations (a district's: its own and its schools') came from a OneRoster import. */
export async function listHasRosterRoles(db: Kysely<DB>, filter: TeacherFilter): Promise<boolean> {
  const organisations = isDistrictFilter(filter)
    ? sql`SELECT a.organisation_id FROM organisation_ancestors AS a WHERE a.ancestor_id = ${filter.organisationId}`
    : sql`SELECT ${filter.organisationId}::text`;
  const { rows } = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM roster_members AS r WHERE r.member_organisation_id IN (${organisations})) AS found`.execute(db);
  return rows[0]?.found === true;
}

/** Certification: Complete with a badge, In progress with progress, else empty. */
const certificationCell = sql<string>`CASE WHEN m.calevel1_at IS NOT NULL OR m.calevel2_at IS NOT NULL THEN 'Complete' WHEN m.certifying > 0 THEN 'In progress' ELSE '' END`;

/**
 * The row's CSV record without its line end; text cells under the rules of every CSV (db/csv-cell.ts). Signed up:
 * Yes unless pending. License: 'N books' (the licence's book quota and 'books')
 * or empty. Removed: '5th March 2024' (formatOrdinalDate in @quire/core), the UTC day. These never need quotes or
 * neutralising.
 */
function csvRecord(status: TeacherStatus, district: boolean, rostered: boolean): RawBuilder<string> {
  const record = csvRecordSpec(status, district);
  return rostered ? sql<string>`${record} || ',' || ${csvCell(sql`coalesce(${rosterRoleColumn}, '')`)}` : record;
}

function csvRecordSpec(status: TeacherStatus, district: boolean): RawBuilder<string> {
  const who = district
    ? sql<string>`${csvCell(sql`m.email`)} || ',' || ${csvCell(sql`m.display_name`)} || ',' || ${csvCell(sql`coalesce(${organisationNameColumn}, '')`)}`
    : sql<string>`${csvCell(sql`m.email`)} || ',' || ${csvCell(sql`m.display_name`)}`;
  if (status === 'inactive') {
    return sql<string>`${who} || ',' || coalesce(to_char(m.revoked_at AT TIME ZONE 'UTC', 'FMDDth FMMonth YYYY'), '') || ',' || ${certificationCell}`;
  }
  return sql<string>`${who} || ','
  || CASE WHEN m.pending THEN 'No' ELSE 'Yes' END || ','
  || CASE WHEN m.license_id IS NOT NULL AND l.book_quota IS NOT NULL THEN l.book_quota::text || ' books' ELSE '' END || ','
  || ${certificationCell}`;
}

/** The BOM and the header record, before the rows. */
export const csvHead = (status: TeacherStatus, district = false, rostered = false): string => CSV_BOM + csvRow(csvColumns(status, district, rostered));

/**
 * `COPY (…) TO STDOUT` of every record of the list, in its order, one per row (text format: the caller undoes
 * COPY's backslash escapes and ends lines with CRLF). Values are inlined as escaped literals: COPY takes no
 * parameters.
 */
export function copyCsvStatement(db: Kysely<DB>, filter: TeacherFilter, sort: TeacherSort, rostered: boolean): string {
  return `COPY (${inlineSql(orderedTeachers(db, filter, sort).select(csvRecord(filter.status, isDistrictFilter(filter), rostered).as('line')))}) TO STDOUT`;
}

/** The records of one window of the list (the page shown, or a keyset batch of the export), with where the next one starts. */
export async function readCsvRecords(
  db: Kysely<DB>,
  filter: TeacherFilter,
  sort: TeacherSort,
  window: TeacherWindow,
  rostered: boolean,
): Promise<{ records: string[]; last: TeacherSeek | null }> {
  const before = 'before' in window;
  const seek = 'after' in window ? window.after : before ? window.before : null;
  let query = orderedTeachers(db, filter, sort, seek, before)
    .select([csvRecord(filter.status, isDistrictFilter(filter), rostered).as('line'), ...seekColumns(sort)])
    .limit(window.limit);
  if ('offset' in window && window.offset > 0) query = query.offset(window.offset);
  const rows = await query.execute();
  if (before) rows.reverse();
  const last = rows[rows.length - 1];
  return { records: rows.map((r) => r.line), last: last ? { key: last.seek_key, email: last.seek_email, id: last.seek_id } : null };
}
