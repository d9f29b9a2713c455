import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { bookLicenseLabel } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Actor } from '../access/actor.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './members.repository.js';

/**
 * Rows fetched per query while streaming: memory stays flat whatever the organisation's size. Orders
 * without an index (signed up, licence, removed) sort per batch, so they take bigger batches.
 */
export const EXPORT_BATCH_SIZE = 1000;
const UNINDEXED_BATCH_SIZE = 5000;

export const CSV_COLUMNS = ['Email', 'Name', 'Signed up', 'License', 'Certification'] as const;

export interface ExportTeachersInput {
  organisationId: string;
  status: repo.TeacherStatus;
  search?: string;
  signedUp?: 'yes' | 'no';
  license?: string;
  certification?: 'complete' | 'in-progress' | 'none';
  sort?: repo.TeacherSortKey;
  dir?: repo.SortDirection;
  /** 'page' exports the page the admin sees; 'all' every teacher matching the search. */
  scope: 'all' | 'page';
  page?: number;
  pageSize?: number;
}

/** A spreadsheet must not run a cell as a formula: cells starting with = + - @ (or tab, CR) get a leading quote. */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function certification(row: repo.TeacherRow): string {
  if (row.calevel1_at || row.calevel2_at) return 'Complete';
  return row.certifying !== null && row.certifying > 0 ? 'In progress' : '';
}

/** One CSV record (spec §3 CSV columns). */
export function csvRecord(row: repo.TeacherRow): string[] {
  return [
    row.email,
    row.display_name,
    row.pending ? 'No' : 'Yes',
    row.book_quota !== null && row.license_id ? bookLicenseLabel(row.book_quota) : '',
    certification(row),
  ].map(neutraliseCell);
}

const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /^\s|\s$/ } as const;

/** Yields the CSV text batch by batch: the BOM and header first, then one chunk per query. */
async function* csvChunks(db: Kysely<DB>, input: ExportTeachersInput): AsyncGenerator<string> {
  yield `\uFEFF${stringify([[...CSV_COLUMNS]], CSV_OPTIONS)}`;
  const filter = {
    organisationId: input.organisationId,
    status: input.status,
    search: input.search,
    signedUp: input.signedUp,
    license: input.license,
    certification: input.certification,
  };
  const sort = { key: input.sort ?? 'email', dir: input.dir ?? 'asc' } as const;
  if (input.scope === 'page') {
    const pageSize = input.pageSize ?? 10;
    const rows = await repo.listTeachers(db, filter, sort, { limit: pageSize, offset: ((input.page ?? 1) - 1) * pageSize });
    if (rows.length) yield stringify(rows.map(csvRecord), CSV_OPTIONS);
    return;
  }
  // Keyset batches: each query continues after the last row of the one before, so no query grows with the list.
  const batchSize = sort.key === 'email' || sort.key === 'name' ? EXPORT_BATCH_SIZE : UNINDEXED_BATCH_SIZE;
  let after: { sortKey: unknown; email: string } | null = null;
  for (;;) {
    const rows = await repo.listTeachersAfter(db, filter, sort, after, batchSize);
    if (rows.length) yield stringify(rows.map(csvRecord), CSV_OPTIONS);
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    after = { sortKey: last.sort_key, email: last.email };
  }
}

/**
 * The teachers as an RFC 4180 CSV stream (UTF-8 with a BOM, CRLF). Access is checked before the first
 * byte, so a refusal is still a JSON error; rows are then read batch by batch as the client reads.
 */
export async function exportTeachersCsv(db: Kysely<DB>, actor: Actor, input: ExportTeachersInput): Promise<Readable> {
  // The whole list at once: admins only; library managers read it page by page (docs/security.md).
  await requireOrgAccess(db, actor, input.organisationId, 'admin');
  // Pulled one chunk at a time as the client reads (backpressure), never the whole list in memory.
  return Readable.from(csvChunks(db, input), { objectMode: false });
}
