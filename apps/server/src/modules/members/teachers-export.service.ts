import { Readable } from 'node:stream';
import type { Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Database } from '../../db/client.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import { CopyTextToCsv } from '../../db/copy-text-to-csv.js';
import { teacherQueryOf, type ListTeachersInput } from './members.service.js';
import { copyCsvStatement, csvHead, listHasRosterRoles, readCsvRecords } from './teachers-csv.repository.js';
import { decodeCursor } from './teachers-cursor.js';
import { isDistrictFilter, type TeacherFilter, type TeacherSeek, type TeacherSort } from './teachers-list.repository.js';

/** Rows per keyset batch on PGlite (which has no COPY to a client stream): memory stays flat whatever the organisation's size. @internal */
export const EXPORT_BATCH_SIZE = 1000;

export interface ExportTeachersInput extends ListTeachersInput {
  /** 'page' exports the page the admin sees; 'all' every teacher matching the search. */
  scope: 'all' | 'page';
}

/** PostgreSQL writes the CSV and streams it (COPY … TO STDOUT); Node only undoes COPY's escapes and adds CRLF. */
async function copyStream(pool: Pool, statement: string, head: string): Promise<Readable> {
  const client = await pool.connect();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    // A COPY cut short leaves the connection mid-protocol: the pool must close it, not reuse it.
    client.release(error);
  };
  const copy = client.query(copyTo(statement));
  const csv = new CopyTextToCsv(head);
  copy.on('error', (error) => {
    release(error);
    csv.destroy(error);
  });
  copy.on('end', () => release());
  csv.on('close', () => {
    if (!copy.readableEnded) {
      copy.destroy();
      release(new Error('CSV export closed before the end'));
    }
  });
  return copy.pipe(csv);
}

/** PGlite: keyset batches, each continuing after the last row of the one before, so no query grows with the list. */
async function* batches(db: Database['db'], filter: TeacherFilter, sort: TeacherSort, rostered: boolean): AsyncGenerator<string> {
  yield csvHead(filter.status, isDistrictFilter(filter), rostered);
  let after: TeacherSeek | null = null;
  for (;;) {
    const { records, last }: { records: string[]; last: TeacherSeek | null } = await readCsvRecords(
      db, filter, sort, after ? { limit: EXPORT_BATCH_SIZE, after } : { limit: EXPORT_BATCH_SIZE, offset: 0 }, rostered,
    );
    if (records.length) yield `${records.join('\r\n')}\r\n`;
    if (!last || records.length < EXPORT_BATCH_SIZE) return;
    after = last;
  }
}

/**
 * The teachers as an RFC 4180 CSV stream (UTF-8 with a BOM, CRLF; columns and rules in teachers-csv.repository.ts).
 * Access is checked before the first byte, so a refusal is still a JSON error; rows are then produced as the
 * client reads (backpressure), never the whole list in memory.
 */
export async function exportTeachersCsv(database: Database, actor: Actor, input: ExportTeachersInput): Promise<Readable> {
  const { db } = database;
  // The whole list at once: admins only; library managers read it page by page (docs/security.md).
  await requireOrgAccess(db, actor, input.organisationId, 'admin');
  const { filter, sort } = teacherQueryOf(input);
  // The export is recorded when it starts: what was asked for, by whom (the file itself is not kept).
  const asked = { scope: input.scope, status: input.status, search: input.search, school: input.school, page: input.page };
  await db.transaction().execute((trx) =>
    recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'members.export', targetType: 'organisation', targetIds: [input.organisationId],
      details: Object.fromEntries(Object.entries(asked).filter(([, v]) => v !== undefined && v !== '')),
    }),
  );
  const district = isDistrictFilter(filter);
  const rostered = await listHasRosterRoles(db, filter);
  const head = csvHead(filter.status, district, rostered);
  if (input.scope === 'page') {
    const limit = input.pageSize ?? 10;
    const window = input.after
      ? { limit, after: decodeCursor(input.after, sort, district) }
      : input.before
        ? { limit, before: decodeCursor(input.before, sort, district) }
        : { limit, offset: ((input.page ?? 1) - 1) * limit };
    const { records } = await readCsvRecords(db, filter, sort, window, rostered);
    return Readable.from([head + records.map((r) => `${r}\r\n`).join('')]);
  }
  if (database.pool) return copyStream(database.pool, copyCsvStatement(db, filter, sort, rostered), head);
  return Readable.from(batches(db, filter, sort, rostered), { objectMode: false });
}
