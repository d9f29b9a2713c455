import { sql, type Kysely, type RawBuilder } from 'kysely';
import { inlineSql } from '../../db/inline-sql.js';
import type { DB } from '../../db/types.js';
import { orderedTeachers, seekColumns, type TeacherFilter, type TeacherSeek, type TeacherSort, type TeacherWindow } from './teachers-list.repository.js';

/**
 * The Teachers CSV (spec §3 columns; docs/teachers-api.md), written by the database: each row's CSV record is
 * one SQL expression, so PostgreSQL streams the file with COPY and PGlite reads it in keyset batches, with the
 * same rules either way.
 */

export const CSV_COLUMNS = ['Email', 'Name', 'Signed up', 'License', 'Certification'] as const;

/** A cell starting with one of these gets a leading ' so a spreadsheet never runs it as a formula. */
const FORMULA_STARTS = '=+-@\t\r';
/** What JavaScript's \s matches (the rule of the export before, written with a CSV library): a cell starting or ending with one is quoted. */
const WHITE_SPACE = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
/** A cell holding one of these is quoted (RFC 4180): the delimiter, the quote, and a CR or LF even alone. */
const NEEDS_QUOTES = '[",\r\n]';

/**
 * One text cell: neutralised (a leading ' before = + - @ tab CR), then quoted, with quotes doubled, when it holds
 * a quote, a comma, a CR or an LF, or starts or ends with white space. `value` must be a column reference: it is
 * repeated, and cheap string tests decide before the one regular expression runs.
 */
function csvCell(value: RawBuilder<string>): RawBuilder<string> {
  const quoted = (text: RawBuilder<string>) => sql<string>`'"' || replace(${text}, '"', '""') || '"'`;
  return sql<string>`(CASE
    WHEN ${value} = '' THEN ''
    WHEN strpos(${FORMULA_STARTS}, left(${value}, 1)) > 0 THEN
      CASE WHEN ${value} ~ ${NEEDS_QUOTES} OR strpos(${WHITE_SPACE}, right(${value}, 1)) > 0
        THEN ${quoted(sql`'''' || ${value}`)} ELSE '''' || ${value} END
    WHEN ${value} ~ ${NEEDS_QUOTES} OR strpos(${WHITE_SPACE}, left(${value}, 1)) > 0 OR strpos(${WHITE_SPACE}, right(${value}, 1)) > 0
      THEN ${quoted(value)}
    ELSE ${value} END)`;
}

/**
 * The row's CSV record without its line end. Signed up: Yes unless pending. License: 'N books' (the licence's
 * book quota, as bookLicenseLabel in @quire/core writes it) or empty. Certification: Complete with a badge,
 * In progress with progress, else empty. These three never need quotes or neutralising.
 */
const csvRecord = sql<string>`${csvCell(sql`m.email`)} || ',' || ${csvCell(sql`m.display_name`)} || ','
  || CASE WHEN m.pending THEN 'No' ELSE 'Yes' END || ','
  || CASE WHEN m.license_id IS NOT NULL AND l.book_quota IS NOT NULL THEN l.book_quota::text || ' books' ELSE '' END || ','
  || CASE WHEN m.calevel1_at IS NOT NULL OR m.calevel2_at IS NOT NULL THEN 'Complete' WHEN m.certifying > 0 THEN 'In progress' ELSE '' END`;

/** The BOM and the header record, before the rows. */
export const CSV_HEAD = `\uFEFF${CSV_COLUMNS.join(',')}\r\n`;

/**
 * `COPY (…) TO STDOUT` of every record of the list, in its order, one per row (text format: the caller undoes
 * COPY's backslash escapes and ends lines with CRLF). Values are inlined as escaped literals: COPY takes no
 * parameters.
 */
export function copyCsvStatement(db: Kysely<DB>, filter: TeacherFilter, sort: TeacherSort): string {
  return `COPY (${inlineSql(orderedTeachers(db, filter, sort).select(csvRecord.as('line')))}) TO STDOUT`;
}

/** The records of one window of the list (the page shown, or a keyset batch of the export), with where the next one starts. */
export async function readCsvRecords(
  db: Kysely<DB>,
  filter: TeacherFilter,
  sort: TeacherSort,
  window: TeacherWindow,
): Promise<{ records: string[]; last: TeacherSeek | null }> {
  const before = 'before' in window;
  const seek = 'after' in window ? window.after : before ? window.before : null;
  let query = orderedTeachers(db, filter, sort, seek, before).select([csvRecord.as('line'), ...seekColumns(sort)]).limit(window.limit);
  if ('offset' in window && window.offset > 0) query = query.offset(window.offset);
  const rows = await query.execute();
  if (before) rows.reverse();
  const last = rows[rows.length - 1];
  return { records: rows.map((r) => r.line), last: last ? { key: last.seek_key, email: last.seek_email } : null };
}
