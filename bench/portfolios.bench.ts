/**
 * Student portfolios benchmark on PostgreSQL: one district of N students (default 1,000,000), each with 0–4
 * published books. Portfolios are switched on, the background job builds the export (the real path: sweep →
 * pg-boss → builder → chunks), then the CSV is downloaded over HTTP through the signed link and counted as it
 * streams. Prints the time of each step and the server's memory growth: the peak RSS, heap and external
 * (Buffer) memory, sampled every 20 ms, over a baseline taken after a full collection, and what is still held
 * after another collection (the benchmark's HTTP client discards what it reads, so the figure is the server's).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5545/postgres npx tsx bench/portfolios.bench.ts [--students N] [--keep] [--reuse]
 *
 * BENCH_DATABASE_URL is an admin URL: the benchmark creates its own database (quire_bench_portfolios) and drops it
 * afterwards unless --keep. Recorded in docs/performance.md ("Portfolios").
 */
import { execFileSync } from 'node:child_process';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { PORTFOLIO_EXPORT_QUEUE } from '../apps/server/src/modules/portfolios/portfolios.job.js';
import { signIn } from '../apps/server/test/auth.js';
import { testEnv } from '../apps/server/test/helper.js';
import { adminQuery } from './load.js';

const { values } = parseArgs({
  options: {
    students: { type: 'string', default: '1000000' },
    keep: { type: 'boolean', default: false },
    /** Reuse the students of a kept database (--keep) instead of seeding again. */
    reuse: { type: 'boolean', default: false },
  },
});
const STUDENTS = Number(values.students);
const DB_NAME = 'quire_bench_portfolios';
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5545/postgres';
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const uptime = () => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average ${loadavg().map((l) => l.toFixed(2)).join(', ')}`;
  }
};

const admin = async (statement: string) => void (await adminQuery(adminUrl, statement));

/** A full garbage collection, so a baseline holds only live memory (exposed at run time: no node flag needed). */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * Samples the process's memory every 20 ms until stopped, from a baseline taken right after a full collection.
 * Returns the peaks above that baseline (what the step needed at its worst, garbage included, since that is what
 * the machine must have) and what is still held after another full collection at the end (a leak would show there).
 */
function sampleMemory() {
  collect();
  const base = process.memoryUsage();
  const peak = { ...base };
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.external = Math.max(peak.external, m.external);
  }, 20);
  return () => {
    clearInterval(timer);
    const end = process.memoryUsage();
    peak.rss = Math.max(peak.rss, end.rss);
    peak.heapUsed = Math.max(peak.heapUsed, end.heapUsed);
    peak.external = Math.max(peak.external, end.external);
    collect();
    const after = process.memoryUsage();
    return {
      text: `memory growth (peak over the baseline) RSS +${mb(peak.rss - base.rss)} MB (baseline ${mb(base.rss)} MB, peak ${mb(peak.rss)} MB), `
        + `heap +${mb(peak.heapUsed - base.heapUsed)} MB, external +${mb(peak.external - base.external)} MB; `
        + `held after a full collection: heap ${signed(after.heapUsed - base.heapUsed)} MB, RSS ${signed(after.rss - base.rss)} MB`,
    };
  };
}
const signed = (bytes: number) => `${bytes < 0 ? '-' : '+'}${mb(Math.abs(bytes))}`;

/**
 * GETs a URL and counts bytes and lines as they stream, keeping nothing. With `gzip` it asks for the compressed
 * file as a browser does and counts the bytes after decompressing them (in this process, so its memory is counted
 * with the server's: the figure is pessimistic).
 */
function download(url: string, gzip = false): Promise<{ status: number; bytes: number; lines: number; bom: boolean; wire: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': gzip ? 'gzip' : 'identity' } }, (response) => {
      let wire = 0;
      response.on('data', (chunk: Buffer) => void (wire += chunk.length));
      const compressed = response.headers['content-encoding'] === 'gzip';
      if (gzip && !compressed) reject(new Error('Asked for gzip, got an uncompressed answer'));
      const res = compressed ? response.pipe(createGunzip()) : response;
      let bytes = 0;
      let lines = 0;
      let bom = false;
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) bom = chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf;
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
      });
      res.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, lines, bom, wire }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

const exists = async () => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount === 1;
  } finally {
    await client.end();
  }
};
if (!values.reuse || !(await exists())) {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
}
const url = new URL(adminUrl);
url.pathname = `/${DB_NAME}`;
const env = testEnv({ DATABASE_URL: url.toString(), NODE_ENV: 'development', LOG_LEVEL: 'warn' });
const database = await openDatabase(env);
await migrateToLatest(database.db);
const app = await buildApp({ env, database, logger: false });
const adminEmail = 'bench-admin@district.example.org';

try {
  console.log(`Node ${process.version}, PostgreSQL, pool ${env.DATABASE_POOL_SIZE}; ${uptime()}`);
  const orgId = 'bench-district';
  let t0 = performance.now();
  const reused = values.reuse && (await database.db.selectFrom('organisations').select('id').where('id', '=', orgId).executeTakeFirst());
  if (reused) {
    await database.db.deleteFrom('portfolio_exports').where('organisation_id', '=', orgId).execute();
    await database.db.updateTable('organisations').set({ student_portfolios: false }).where('id', '=', orgId).execute();
  } else {
    await database.db.insertInto('organisations').values({ id: orgId, name: 'Benchmark District', student_portfolios: false }).execute();
    // Students, then 0–4 published books each (two on average), written by PostgreSQL itself.
    await sql`
      INSERT INTO students (id, organisation_id, student_number, display_name, email, grade, school_year, created_at)
      SELECT 's' || lpad(g::text, 8, '0'), ${orgId}, 'SN' || g,
        (ARRAY['Ann','Ben','Cara','Dev','Eli','Fay','Gus','Hana','Zoë','José'])[1 + g % 10] || ' ' || (ARRAY['Smith','Jones','Lee','Patel','García','Kim','Nguyen'])[1 + g % 7],
        'student' || g || '@students.district.example.org', (ARRAY['K','1','2','3','4','5','6','7','8'])[1 + g % 9], '2025-26', now()
      FROM generate_series(1, ${STUDENTS}) g`.execute(database.db);
    await sql`
      INSERT INTO portfolio_items (id, organisation_id, student_id, book_id, book_title, page_count, created_at, published_at, teacher_name, teacher_email, class_name, book_url)
      SELECT 'i' || g || '-' || k, ${orgId}, 's' || lpad(g::text, 8, '0'), 'b' || g || '-' || k,
        (ARRAY['All About Me','My Volcano Book','Fractions, Explained','The "Water" Cycle','=Poems & Songs'])[1 + (g + k) % 5],
        4 + (g * 7 + k) % 20, now() - ((g + k) % 300) * interval '1 day' - interval '10 days', now() - ((g + k) % 300) * interval '1 day',
        'Teacher ' || (g % 2000), 'teacher' || (g % 2000) || '@district.example.org', 'Class ' || (g % 500), NULL
      FROM generate_series(1, ${STUDENTS}) g, generate_series(1, 4) k
      WHERE k <= g % 5`.execute(database.db);
    await sql`ANALYZE students`.execute(database.db);
    await sql`ANALYZE portfolio_items`.execute(database.db);
    const items = await sql<{ n: number }>`SELECT count(*)::int AS n FROM portfolio_items`.execute(database.db);
    console.log(`seed: ${STUDENTS} students, ${items.rows[0]?.n} published books in ${seconds(performance.now() - t0)} s (not part of the figures)`);
    await database.db.insertInto('admins').values({ organisation_id: orgId, email: adminEmail }).execute();
  }
  const counts = await sql<{ students: number; items: number }>`SELECT (SELECT count(*)::int FROM students) AS students, (SELECT count(*)::int FROM portfolio_items) AS items`.execute(database.db);
  console.log(`district: ${counts.rows[0]?.students} students, ${counts.rows[0]?.items} published books`);

  const { headers } = await signIn(app, { email: adminEmail });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;

  // Portfolios switched on: the sweep queues the first build, the job builds and publishes it.
  let stop = sampleMemory();
  t0 = performance.now();
  await database.db.updateTable('organisations').set({ student_portfolios: true }).where('id', '=', orgId).execute();
  await app.portfolios.sweep();
  await app.jobs.waitForIdle(PORTFOLIO_EXPORT_QUEUE, 60 * 60_000);
  const buildMs = performance.now() - t0;
  const buildMem = stop();
  const exported = await database.db.selectFrom('portfolio_exports').selectAll().where('organisation_id', '=', orgId).where('status', '=', 'ready').executeTakeFirstOrThrow();
  console.log(`build (job): ${seconds(buildMs)} s, ${exported.row_count} rows, ${mb(Number(exported.byte_size))} MB in ${exported.chunk_count} chunks; ${buildMem.text}`);

  const answer = await app.inject({ url: `/rest/${orgId}/student-portfolios-export/latest`, headers });
  const link = (answer.json() as { url: string }).url;
  stop = sampleMemory();
  t0 = performance.now();
  const file = await download(`http://127.0.0.1:${port}${link}`);
  const downloadMs = performance.now() - t0;
  const downloadMem = stop();
  console.log(`download (HTTP, streamed): ${seconds(downloadMs)} s, status ${file.status}, ${mb(file.bytes)} MB, ${file.lines} lines, BOM ${file.bom}, ${mb(file.bytes / (downloadMs / 1000))} MB/s; ${downloadMem.text}`);
  if (file.bytes !== Number(exported.byte_size) || file.lines !== exported.row_count + 1) throw new Error('The download does not match the export');

  const gzipLink = ((await app.inject({ url: `/rest/${orgId}/student-portfolios-export/latest`, headers })).json() as { url: string }).url;
  stop = sampleMemory();
  t0 = performance.now();
  const zipped = await download(`http://127.0.0.1:${port}${gzipLink}`, true);
  const zippedMs = performance.now() - t0;
  const zippedMem = stop();
  console.log(`download with gzip (as a browser asks; decompressed by the client in this process): ${seconds(zippedMs)} s, status ${zipped.status}, ${mb(zipped.wire)} MB on the wire for ${mb(zipped.bytes)} MB, ${zipped.lines} lines; ${zippedMem.text}`);
  if (zipped.bytes !== Number(exported.byte_size) || zipped.lines !== exported.row_count + 1) throw new Error('The gzip download does not match the export');
  console.log(`done; ${uptime()}`);
} finally {
  await app.close();
  await database.close();
  if (!values.keep) await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
}
