import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/client.js';
import type { DB } from '../../db/types.js';
import { csvHeader, portfolioCsvLine } from './portfolio-csv.js';
import {
  deleteExport, exportRowsAfter, findPortfolioFlag, insertBuildingExport, insertChunk, publishExport, pruneExports,
} from './portfolios.repository.js';

/** Bytes of CSV per stored chunk: big enough for few rows, small enough to never matter in memory. */
export const CHUNK_BYTES = 1024 * 1024;
/** Students read per query while building. */
export const STUDENTS_PER_PAGE = 2_000;
/** Published exports kept per organisation: the newest and the one before (a running download finishes). */
export const EXPORTS_KEPT = 2;

export interface BuildResult {
  exportId: string;
  rowCount: number;
  byteSize: number;
  chunkCount: number;
}

export interface BuildOptions {
  /** Test hook: called before each chunk is stored; throwing simulates a failure part-way. */
  beforeChunk?: (seq: number) => void | Promise<void>;
}

/**
 * Builds the organisation's student-portfolio CSV and publishes it, never holding more than one chunk of
 * it in memory: students are read a page at a time (keyset on id), rows are appended to a ~1 MB buffer
 * that is stored as one chunk row as soon as it is full.
 *
 * PostgreSQL: the whole build is one transaction, so a failure (or a crash) leaves nothing behind.
 * PGlite serves one connection, and a long transaction would stall every request of the console, so there
 * the chunks are written under an unpublished ('building') export row that no reader ever selects; the
 * flip to 'ready' (and the pruning of older files) is one transaction, and a failure deletes the build.
 * Either way a half-written export is never visible. Returns null when portfolios are off.
 */
export async function buildPortfolioExport(database: Database, organisationId: string, options: BuildOptions = {}): Promise<BuildResult | null> {
  const flag = await findPortfolioFlag(database.db, organisationId);
  if (!flag?.enabled) return null;
  const exportId = randomUUID();
  if (database.kind === 'postgres') {
    return database.db.transaction().execute(async (trx) => {
      await insertBuildingExport(trx, organisationId, exportId);
      const totals = await writeChunks(trx, organisationId, exportId, options);
      await publishExport(trx, organisationId, exportId, totals);
      await pruneExports(trx, organisationId, EXPORTS_KEPT, exportId);
      return { exportId, ...totals };
    });
  }
  await insertBuildingExport(database.db, organisationId, exportId);
  try {
    const totals = await writeChunks(database.db, organisationId, exportId, options);
    await database.db.transaction().execute(async (trx) => {
      await publishExport(trx, organisationId, exportId, totals);
      await pruneExports(trx, organisationId, EXPORTS_KEPT, exportId);
    });
    return { exportId, ...totals };
  } catch (error) {
    await deleteExport(database.db, organisationId, exportId).catch(() => undefined);
    throw error;
  }
}

async function writeChunks(db: Kysely<DB>, organisationId: string, exportId: string, options: BuildOptions) {
  let pieces: string[] = [csvHeader()];
  let pending = Buffer.byteLength(pieces[0]!);
  let seq = 0;
  let byteSize = 0;
  let rowCount = 0;
  const flush = async () => {
    if (!pieces.length) return;
    const data = Buffer.from(pieces.join(''), 'utf8');
    pieces = [];
    pending = 0;
    await options.beforeChunk?.(seq);
    await insertChunk(db, organisationId, exportId, seq, data);
    seq += 1;
    byteSize += data.length;
  };
  let after = '';
  for (;;) {
    const rows = await exportRowsAfter(db, organisationId, after, STUDENTS_PER_PAGE);
    if (!rows.length) break;
    for (const row of rows) {
      const line = portfolioCsvLine(row);
      pieces.push(line);
      // Close enough: the CSV is mostly ASCII; the exact size is counted when the chunk is encoded.
      pending += line.length;
      rowCount += 1;
      if (pending >= CHUNK_BYTES) await flush();
    }
    after = rows[rows.length - 1]!.student_id;
  }
  await flush();
  return { rowCount, byteSize, chunkCount: seq };
}
