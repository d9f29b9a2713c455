import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import pg, { type Pool } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CopyTextToCsv } from '../../db/copy-text-to-csv.js';
import type { Database } from '../../db/client.js';
import type { DB } from '../../db/types.js';
import { csvHeader } from './portfolio-csv.js';
import {
  copyExportLinesStatement, deleteExport, exportLinesAfter, findPortfolioFlag, insertBuildingExport, insertChunk, publishExport, pruneExports,
} from './portfolios.repository.js';

/** Bytes of CSV per stored chunk (every chunk but the last is exactly this long). */
const CHUNK_BYTES = 1024 * 1024;
/** Students read per query while building on PGlite (PostgreSQL streams the whole file with COPY). */
const STUDENTS_PER_PAGE = 2_000;
/** Published exports kept per organisation: the newest and the one before (a running download finishes). */
const EXPORTS_KEPT = 2;

export interface BuildResult {
  exportId: string;
  rowCount: number;
  byteSize: number;
  chunkCount: number;
}

export interface BuildOptions {
  /** Test hook: called before each chunk is stored; throwing simulates a failure part-way. */
  beforeChunk?: (seq: number) => void | Promise<void>;
  /** Test hook: a smaller chunk, so tests cross chunk boundaries with kilobytes instead of megabytes. */
  chunkBytes?: number;
}

/**
 * Builds the organisation's student-portfolio CSV and publishes it, never holding more than one chunk of it in
 * memory. The database writes the CSV records (portfolios.repository.ts); on PostgreSQL they stream out of one
 * `COPY … TO STDOUT`, on PGlite (no COPY to a client stream) they come in keyset batches of students. Either way
 * the bytes flow through a stream with backpressure into ChunkStore, which fills one fixed 1 MB buffer and
 * stores it as a chunk row before reading on.
 *
 * PostgreSQL: the chunks and the publish are one transaction, so a failure (or a crash) leaves nothing behind.
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
    const pool = database.pool!;
    return database.db.transaction().execute(async (trx) => {
      await insertBuildingExport(trx, organisationId, exportId);
      const store = new ChunkStore(trx, organisationId, exportId, options);
      const rowCount = await copyLinesInto(pool, copyExportLinesStatement(organisationId), store);
      const totals = { rowCount, ...store.totals() };
      await publishExport(trx, organisationId, exportId, totals);
      await pruneExports(trx, organisationId, EXPORTS_KEPT, exportId);
      return { exportId, ...totals };
    });
  }
  await insertBuildingExport(database.db, organisationId, exportId);
  try {
    const store = new ChunkStore(database.db, organisationId, exportId, options);
    const rowCount = { value: 0 };
    await pipeline(Readable.from(batches(database.db, organisationId, rowCount), { objectMode: false }), store);
    const totals = { rowCount: rowCount.value, ...store.totals() };
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

/**
 * Streams `COPY (…) TO STDOUT` (one CSV record a row) through CopyTextToCsv into `sink`; returns the number of
 * records. The COPY runs on a connection of its own, opened with the pool's settings and closed at the end, so a
 * long build never holds a second connection of the pool the requests need (nor waits for one when it is small).
 */
async function copyLinesInto(pool: Pool, statement: string, sink: Writable): Promise<number> {
  const client = new pg.Client(pool.options);
  // A connection the server ends mid-build fails the COPY below; without a listener Node would crash.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const copy = client.query(copyTo(statement));
    await pipeline(copy, new CopyTextToCsv(csvHeader()), sink);
    return copy.rowCount;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** PGlite: the header, then the records of STUDENTS_PER_PAGE students at a time, each batch one string. */
async function* batches(db: Kysely<DB>, organisationId: string, rowCount: { value: number }): AsyncGenerator<string> {
  yield csvHeader();
  let after = '';
  for (;;) {
    const rows = await exportLinesAfter(db, organisationId, after, STUDENTS_PER_PAGE);
    if (!rows.length) return;
    rowCount.value += rows.length;
    after = rows[rows.length - 1]!.student_id;
    yield `${rows.map((r) => r.line).join('\r\n')}\r\n`;
  }
}

/**
 * A writable that cuts what it is given into chunks of exactly CHUNK_BYTES (the last one shorter) and stores
 * each before accepting more: one buffer, reused, is all it holds. A write is acknowledged only once its bytes
 * are in the buffer or stored, so the source waits while a chunk is written (backpressure).
 */
class ChunkStore extends Writable {
  readonly #buffer: Buffer;
  #filled = 0;
  #seq = 0;
  #byteSize = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly organisationId: string,
    private readonly exportId: string,
    private readonly options: BuildOptions,
  ) {
    super({ decodeStrings: true });
    this.#buffer = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
  }

  totals(): { byteSize: number; chunkCount: number } {
    return { byteSize: this.#byteSize, chunkCount: this.#seq };
  }

  async #store(): Promise<void> {
    if (!this.#filled) return;
    await this.options.beforeChunk?.(this.#seq);
    // The driver copies the bytes into its message before the insert resolves, so the buffer is free again after it.
    await insertChunk(this.db, this.organisationId, this.exportId, this.#seq, this.#buffer.subarray(0, this.#filled));
    this.#seq += 1;
    this.#byteSize += this.#filled;
    this.#filled = 0;
  }

  async #take(chunk: Buffer): Promise<void> {
    for (let offset = 0; offset < chunk.length;) {
      const copied = chunk.copy(this.#buffer, this.#filled, offset);
      this.#filled += copied;
      offset += copied;
      if (this.#filled === this.#buffer.length) await this.#store();
    }
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.#take(chunk).then(() => done(), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.#store().then(() => done(), done);
  }
}
