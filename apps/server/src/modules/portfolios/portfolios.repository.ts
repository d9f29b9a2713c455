import { sql, type Kysely, type RawBuilder } from 'kysely';
import { csvCell } from '../../db/csv-cell.js';
import { inlineSql } from '../../db/inline-sql.js';
import type { DB } from '../../db/types.js';

/** Whether the organisation exists and has studentPortfolios on; undefined when it does not exist. */
export async function findPortfolioFlag(db: Kysely<DB>, organisationId: string): Promise<{ name: string; enabled: boolean } | undefined> {
  const row = await db
    .selectFrom('organisations')
    .select(['name', 'student_portfolios'])
    .where('id', '=', organisationId)
    .executeTakeFirst();
  return row ? { name: row.name, enabled: row.student_portfolios } : undefined;
}

/** The newest published export of the organisation. */
export async function findLatestReadyExport(db: Kysely<DB>, organisationId: string) {
  return db
    .selectFrom('portfolio_exports')
    .select(['id', 'generated_at', 'row_count', 'byte_size', 'chunk_count'])
    .where('organisation_id', '=', organisationId)
    .where('status', '=', 'ready')
    .orderBy('generated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A published export of this organisation (the tenant boundary of the download link). */
export async function findReadyExport(db: Kysely<DB>, organisationId: string, exportId: string) {
  return db
    .selectFrom('portfolio_exports')
    .select(['id', 'generated_at', 'row_count', 'byte_size', 'chunk_count'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', exportId)
    .where('status', '=', 'ready')
    .executeTakeFirst();
}

/** One chunk of an export, as a Buffer over the bytes the driver returned (no copy); undefined when missing. */
export async function readChunk(db: Kysely<DB>, organisationId: string, exportId: string, seq: number): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('portfolio_export_chunks')
    .select('data')
    .where('organisation_id', '=', organisationId)
    .where('export_id', '=', exportId)
    .where('seq', '=', seq)
    .executeTakeFirst();
  if (!row) return undefined;
  const data: Uint8Array = row.data;
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** `COPY … TO STDOUT (FORMAT binary)` of an export's chunks in order: one bytea column (CopyBinaryField reads it). */
export function copyChunksStatement(db: Kysely<DB>, organisationId: string, exportId: string): string {
  const query = db
    .selectFrom('portfolio_export_chunks')
    .select('data')
    .where('organisation_id', '=', organisationId)
    .where('export_id', '=', exportId)
    .orderBy('seq');
  return `COPY (${inlineSql(query)}) TO STDOUT (FORMAT binary)`;
}

/** A timestamp as JavaScript's toISOString() writes it (UTC, milliseconds), or empty. */
const isoCell = (value: RawBuilder<unknown>) => sql<string>`coalesce(to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;

/** One CSV record (no line end), in PORTFOLIO_CSV_COLUMNS order, over `students s LEFT JOIN portfolio_items i`. */
const csvLine = sql.join([
  csvCell(sql`s.id`), csvCell(sql`s.student_number`), csvCell(sql`s.display_name`), csvCell(sql`s.email`), csvCell(sql`s.grade`),
  csvCell(sql`s.school_year`), csvCell(sql`i.book_id`), csvCell(sql`i.book_title`), sql`coalesce(i.page_count::text, '')`,
  isoCell(sql`i.created_at`), isoCell(sql`i.published_at`), csvCell(sql`i.teacher_name`), csvCell(sql`i.teacher_email`),
  csvCell(sql`i.class_name`), csvCell(sql`i.book_url`),
], sql` || ',' || `);

/**
 * Every record of the export in file order: a student's published items, or the student alone when nothing is
 * published. With `withStudentId` each row also names its student (where the next keyset batch starts).
 */
function exportLines(organisationId: string, students: RawBuilder<unknown>, withStudentId: boolean) {
  return sql<{ line: string; student_id: string }>`
    SELECT ${csvLine} AS line${withStudentId ? sql`, s.id AS student_id` : sql``}
    FROM ${students} s
    LEFT JOIN portfolio_items i ON i.organisation_id = ${organisationId} AND i.student_id = s.id
    ORDER BY s.id, i.published_at, i.id`;
}

/**
 * `COPY … TO STDOUT` of every record of the organisation's export, one per row (text format: the caller undoes
 * COPY's backslash escapes and ends lines with CRLF, see db/copy-text-to-csv.ts). PostgreSQL only.
 */
export function copyExportLinesStatement(organisationId: string): string {
  const students = sql`(SELECT id, student_number, display_name, email, grade, school_year FROM students WHERE organisation_id = ${organisationId})`;
  return `COPY (${inlineSql(exportLines(organisationId, students, false))}) TO STDOUT`;
}

/** One batch of records: those of the next `limit` students after `afterStudentId` (keyset on id), in file order. */
export async function exportLinesAfter(db: Kysely<DB>, organisationId: string, afterStudentId: string, limit: number) {
  const students = sql`(
    SELECT id, student_number, display_name, email, grade, school_year FROM students
    WHERE organisation_id = ${organisationId} AND id > ${afterStudentId}
    ORDER BY id
    LIMIT ${limit})`;
  return (await exportLines(organisationId, students, true).execute(db)).rows;
}

export async function insertBuildingExport(db: Kysely<DB>, organisationId: string, id: string): Promise<void> {
  await db.insertInto('portfolio_exports').values({ id, organisation_id: organisationId, generated_at: new Date(), status: 'building' }).execute();
}

export async function insertChunk(db: Kysely<DB>, organisationId: string, exportId: string, seq: number, data: Buffer): Promise<void> {
  await db.insertInto('portfolio_export_chunks').values({ organisation_id: organisationId, export_id: exportId, seq, data }).execute();
}

/** Publishes a built export: from now on the export call answers with it. */
export async function publishExport(
  db: Kysely<DB>,
  organisationId: string,
  exportId: string,
  totals: { rowCount: number; byteSize: number; chunkCount: number },
): Promise<void> {
  await db
    .updateTable('portfolio_exports')
    .set({ status: 'ready', generated_at: new Date(), row_count: totals.rowCount, byte_size: totals.byteSize, chunk_count: totals.chunkCount })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', exportId)
    .execute();
}

/**
 * Drops the organisation's older exports, keeping the newest `keep` published ones (a download of the
 * previous file that is still running finishes), and any unfinished build other than `exceptId`.
 */
export async function pruneExports(db: Kysely<DB>, organisationId: string, keep: number, exceptId?: string): Promise<void> {
  await sql`
    DELETE FROM portfolio_exports
    WHERE organisation_id = ${organisationId}
      AND id <> ${exceptId ?? ''}
      AND (status = 'building' OR id NOT IN (
        SELECT id FROM portfolio_exports
        WHERE organisation_id = ${organisationId} AND status = 'ready'
        ORDER BY generated_at DESC, id DESC
        LIMIT ${keep}))`.execute(db);
}

export async function deleteExport(db: Kysely<DB>, organisationId: string, exportId: string): Promise<void> {
  await db.deleteFrom('portfolio_exports').where('organisation_id', '=', organisationId).where('id', '=', exportId).execute();
}

/** Organisations with portfolios on whose newest export is missing or older than `olderThanHours`. */
export async function organisationsDueForExport(db: Kysely<DB>, olderThanHours: number): Promise<string[]> {
  const result = await sql<{ id: string }>`
    SELECT o.id FROM organisations o
    WHERE o.student_portfolios
      AND NOT EXISTS (
        SELECT 1 FROM portfolio_exports e
        WHERE e.organisation_id = o.id AND e.status = 'ready'
          AND e.generated_at > now() - make_interval(hours => ${olderThanHours}::int))
    ORDER BY o.id
    LIMIT 10000`.execute(db);
  return result.rows.map((r) => r.id);
}
