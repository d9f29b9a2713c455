import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import {
  AUDIT_PAGE_SIZE,
  AUDIT_RETENTION_MAX_DAYS,
  AUDIT_RETENTION_MIN_DAYS,
  type AuditEventsPage,
  type AuditEventsQuery,
  type AuditFilters,
  type AuditRetention,
} from '@quire/core';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import { AuditCsvWriter, auditCsvHead, presentAuditEvent } from './audit.presenter.js';
import * as repo from './audit.repository.js';

/**
 * Entries read per statement while exporting: memory stays flat whatever the log's size (a batch of 2,000 is about
 * 2 MB of rows), and a million entries are 500 statements.
 */
const AUDIT_EXPORT_BATCH = 2000;

function encodeCursor(seek: repo.AuditSeek): string {
  return Buffer.from(`${seek.at}|${seek.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): repo.AuditSeek {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length || !at || !id || !/^\d{1,19}$/.test(id) || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) || Number.isNaN(Date.parse(at))) {
    throw appError('invalid_cursor');
  }
  return { at, id };
}

/** A day alone is its midnight UTC; a date-time stays as given (with its offset). */
function normalise(filters: AuditFilters): AuditFilters {
  const instant = (v: string | undefined) => (v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return { ...filters, from: instant(filters.from), to: instant(filters.to) };
}

/**
 * A page of the organisation's audit log, newest first (admins only). At a district the log holds the entries of
 * every organisation under it too (as its Teachers view does); `school` narrows it to one of them.
 */
export async function listAuditEvents(db: Kysely<DB>, actor: Actor, organisationId: string, query: AuditEventsQuery): Promise<AuditEventsPage> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const { cursor, ...filters } = query;
  const seek = cursor ? decodeCursor(cursor) : null;
  const [scope, below] = await Promise.all([repo.scopeOrganisations(db, organisationId, filters.school), repo.hasOrganisationsBelow(db, organisationId)]);
  const rows = await repo.listAuditEvents(db, scope, normalise(filters), seek, AUDIT_PAGE_SIZE + 1);
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  const last = page.at(-1);
  return {
    events: page.map(presentAuditEvent),
    nextCursor: rows.length > AUDIT_PAGE_SIZE && last ? encodeCursor({ at: last.at, id: last.id }) : null,
    hasOrganisationsBelow: below,
  };
}

/**
 * The export's records, a batch of entries at a time, each batch continuing after the last entry of the one before. The
 * next batch is asked for as soon as a batch arrives, so the database reads it while this one is written (two cores,
 * two jobs); at most two batches are held at once. Each batch is yielded as one string when the stream asks for more
 * (backpressure): a slow client holds the export, never the log in memory.
 */
async function* exportBatches(db: Kysely<DB>, organisationId: string, filters: AuditFilters, start: repo.AuditSeek, district: boolean): AsyncGenerator<string> {
  yield auditCsvHead(district);
  const scope = await repo.scopeOrganisations(db, organisationId, filters.school);
  const writer = new AuditCsvWriter(district);
  const read = (seek: repo.AuditSeek) => {
    const batch = repo.listAuditExportRows(db, scope, filters, seek, AUDIT_EXPORT_BATCH);
    // A client gone mid-export stops the generator with a batch still on its way: its failure is nobody's to report.
    batch.catch(() => {});
    return batch;
  };
  let next: Promise<repo.AuditExportRow[]> | null = read(start);
  while (next) {
    const rows: repo.AuditExportRow[] = await next;
    const last = rows.at(-1);
    next = last && rows.length === AUDIT_EXPORT_BATCH ? read({ at: last.at, id: last.id }) : null;
    let text = '';
    for (const row of rows) text += writer.record(row);
    if (text) yield text;
  }
}

/**
 * The filtered view, every page, as an RFC 4180 CSV stream (UTF-8 with a BOM, CRLF, times in ISO 8601 UTC, formulas
 * neutralised: csvRow of @quire/core). The export is itself recorded first, and the file holds the entries written
 * before that record: what the admin was looking at, not what arrived while it streamed. Keyset batches as the
 * client reads (backpressure), never the whole log in memory.
 */
export async function exportAuditEventsCsv(db: Kysely<DB>, actor: Actor, organisationId: string, filters: AuditFilters): Promise<Readable> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const normalised = normalise(filters);
  const recorded = await db.transaction().execute((trx) =>
    recordAudit(trx, actor, {
      organisationId,
      action: 'audit.export',
      targetType: 'organisation',
      targetIds: [organisationId],
      details: { filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) },
    }),
  );
  const district = await repo.hasOrganisationsBelow(db, organisationId);
  return Readable.from(exportBatches(db, organisationId, normalised, recorded, district), { objectMode: false });
}

const retentionOf = (days: number): AuditRetention => ({ retentionDays: days, minDays: AUDIT_RETENTION_MIN_DAYS, maxDays: AUDIT_RETENTION_MAX_DAYS });

export async function readAuditRetention(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<AuditRetention> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  const days = await repo.readRetentionDays(db, organisationId);
  if (days === undefined) throw appError('organisation_not_found');
  return retentionOf(days);
}

/** Changes how long the organisation's entries are kept (admins only), recorded with the old and new period. */
export async function updateAuditRetention(db: Kysely<DB>, actor: Actor, organisationId: string, retentionDays: number): Promise<AuditRetention> {
  await requireOrgAccess(db, actor, organisationId, 'admin');
  return db.transaction().execute(async (trx) => {
    const before = await repo.readRetentionDays(trx, organisationId, { forUpdate: true });
    if (before === undefined) throw appError('organisation_not_found');
    if (before !== retentionDays) {
      await repo.writeRetentionDays(trx, organisationId, retentionDays);
      await recordAudit(trx, actor, {
        organisationId,
        action: 'audit.retention.update',
        targetType: 'organisation',
        targetIds: [organisationId],
        oldValue: { retentionDays: before },
        newValue: { retentionDays },
      });
    }
    return retentionOf(retentionDays);
  });
}
