/**
 * Teachers benchmark on PostgreSQL: one organisation of 100,000 teachers behind the real server.
 *  - the teachers page (GET …/members/teachers?page&pageSize, list + count) under 50 concurrent requests,
 *    against the same two SQL statements sent straight to PostgreSQL;
 *  - a deep page (row 50,000) through its cursor and through its page number, against the first page;
 *  - paging as the console does: Next and Previous by cursor from page 1 and from row 50,000, the last page by number;
 *  - the streamed CSV export of every teacher against COPY … TO STDOUT, with the server's memory growth;
 *  - importing 5,000 e-mails; assigning one licence to 10,000 teachers.
 * Prints the figures recorded in docs/performance.md ("Teachers list and export", "Numbered and deep pages").
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5545/postgres npx tsx bench/teachers.bench.ts [--teachers N] [--requests N] [--concurrency N] [--keep]
 *   npx tsx bench/teachers.bench.ts --db pglite          (embedded PGlite in memory; no COPY comparison)
 *
 * Requests and bare statements are sent from a worker thread (load-client.mjs), not from the server's thread, and
 * each page scenario alternates HTTP and bare SQL in four rounds, so the shared machine's load weighs on both alike,
 * after 100 untimed requests of each (no cold start in either column).
 * BENCH_DATABASE_URL is an admin URL: the benchmark creates its own database (quire_bench_teachers) and drops it
 * afterwards unless --keep.
 */
import { execFile } from 'node:child_process';
import { parseArgs } from 'node:util';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { signIn } from '../apps/server/test/auth.js';
import { testEnv } from '../apps/server/test/helper.js';
import { benchDatabase, formatSummary as fmt, load, loadNow, machineLine, percentile, sampleMemoryPeak, startLoadClient, type Summary } from './load.js';

const { values } = parseArgs({
  options: {
    teachers: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
    /** postgres (default) or pglite: the embedded database, in memory. */
    db: { type: 'string', default: 'postgres' },
    /** numbered: only the pages by number, one at a time (the rest is skipped). */
    only: { type: 'string' },
  },
});
const ONLY_NUMBERED = values.only === 'numbered';
const TEACHERS = Number(values.teachers);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const PORT = 3731;
const DB_NAME = 'quire_bench_teachers';
const { dbUrl, recreate, drop } = benchDatabase(DB_NAME, 'postgres://postgres@127.0.0.1:5433/postgres');
const exec = promisify(execFile);
const PGLITE = values.db === 'pglite';

/** The load generator runs in a worker thread (bench/load-client.mjs): the server's event loop serves only the server. */
const client = startLoadClient(PGLITE ? undefined : { databaseUrl: dbUrl, poolSize: 10 });
const inClient = client.run;

if (!PGLITE) {
  await recreate();
}
const env = testEnv({ DATABASE_URL: PGLITE ? undefined : dbUrl, PUBLIC_URL: `http://127.0.0.1:${PORT}`, PORT });
const database = await openDatabase({ ...env, inMemory: PGLITE });
await migrateToLatest(database.db);
const app = await buildApp({ env, database, logger: false });
const pool = PGLITE ? null : new pg.Pool({ connectionString: dbUrl, max: env.DATABASE_POOL_SIZE });
// Dropping the database at the end ends idle connections: not an error of the benchmark.
pool?.on('error', () => undefined);
/** The bare statements go to the same database, without the server. */
const bare = {
  query: async (text: string, params: unknown[]) => (pool ? pool.query(text, params) : database.pglite!.query(text, params)),
};

try {
  console.log(machineLine(PGLITE ? 'PGlite (one connection)' : `PostgreSQL, pool ${env.DATABASE_POOL_SIZE}`));
  const orgId = 'bench-org';
  await database.db.insertInto('organisations').values({ id: orgId, name: 'Benchmark District' }).execute();
  await database.db.insertInto('licenses').values([
    { id: 'bench-lic-1000', organisation_id: orgId, name: 'Premium', quantity: TEACHERS * 2, book_quota: 1000, library_quota: null },
    { id: 'bench-lic-40', organisation_id: orgId, name: 'Basic', quantity: TEACHERS, book_quota: 40, library_quota: 5 },
  ]).execute();
  let t0 = performance.now();
  await sql`
    INSERT INTO members (id, organisation_id, email, display_name, role, pending, license_id, certifying, calevel1_at, revoked_at)
    SELECT 'm' || g, ${orgId}, 'teacher' || lpad(g::text, 6, '0') || '@district.example.org',
      (ARRAY['Ann','Ben','Cara','Dev','Eli','Fay','Gus','Hana'])[1 + g % 8] || ' ' || (ARRAY['Smith','Jones','Lee','Patel','Garcia','Kim','Nguyen'])[1 + g % 7] || ' ' || g,
      CASE WHEN g % 10 = 0 THEN -600 ELSE 600 END, g % 10 = 0,
      CASE WHEN g % 3 = 0 THEN 'bench-lic-1000' WHEN g % 3 = 1 THEN 'bench-lic-40' END,
      CASE WHEN g % 5 = 0 THEN 0.5 END, CASE WHEN g % 11 = 0 THEN now() END,
      CASE WHEN g % 50 = 0 THEN now() END
    FROM generate_series(1, ${TEACHERS}) g`.execute(database.db);
  // VACUUM as well: hint bits and the visibility map set, as on a table that has lived; otherwise autovacuum
  // reaches the new rows at some point during the scenarios and slows both columns of whichever it overlaps.
  await sql`VACUUM (ANALYZE)`.execute(database.db);
  console.log(`seed: ${TEACHERS} members in ${((performance.now() - t0) / 1000).toFixed(1)} s (not part of the figures)`);

  const adminEmail = 'bench-admin@district.example.org';
  await database.db.insertInto('admins').values({ organisation_id: orgId, email: adminEmail }).execute();
  const { headers } = await signIn(app, { email: adminEmail });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${PORT}/payments/v1/admin/organisations/${orgId}`;

  // Pages by number, one request at a time, as the console's page buttons ask for them: the first page, the middle,
  // three quarters in (row 15,000 of 20,000), the last, and random ones, each in every round. Each page after a first
  // look at the list starts from its anchors (modules/members/teachers-anchors.ts); the first numbered page after a
  // change to the list reads them again, timed apart. Checked against OFFSET straight on the database.
  {
    const total = Number(((await (await fetch(`${base}/members/teachers?page=1&pageSize=10`, { headers })).json()) as { total: number }).total);
    const lastPage = Math.ceil(total / 10);
    const kinds: Record<string, (round: number) => number> = {
      'first page': () => 1,
      [`middle (row ${Math.floor(total / 2)})`]: () => Math.floor(lastPage / 2),
      [`three quarters in (row ${Math.floor(total * 0.75)})`]: () => Math.floor(lastPage * 0.75),
      'last page': () => lastPage,
      'random page': (round) => 1 + ((round * 7919) % lastPage),
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    const ask = async (page: number) => {
      const t = performance.now();
      const res = await fetch(`${base}/members/teachers?sort=email&dir=asc&page=${page}&pageSize=10`, { headers });
      const body = (await res.json()) as { members: Array<{ id: string }> };
      return { ms: performance.now() - t, ids: body.members.map((m) => m.id) };
    };
    const offsetIds = async (page: number) =>
      (await bare.query(
        `SELECT m.id FROM members m WHERE m.organisation_id = $1 AND NOT m.is_student AND NOT m.is_provider_staff AND m.revoked_at IS NULL ORDER BY m.email LIMIT 10 OFFSET ${(page - 1) * 10}`,
        [orgId],
      )).rows.map((r) => (r as { id: string }).id);
    let same = true;
    // Not timed: the server's first requests, and the list's anchors read once.
    for (let i = 0; i < 20; i++) await ask(1 + ((i * 31) % lastPage));
    for (let round = 0; round < 60; round++) {
      for (const [kind, pageOf] of Object.entries(kinds)) {
        const page = pageOf(round);
        const { ms, ids } = await ask(page);
        times[kind]!.push(ms);
        if (round % 20 === 0 && ids.join() !== (await offsetIds(page)).join()) same = false;
      }
    }
    const p50 = (list: number[]) => percentile([...list].sort((a, b) => a - b), 50);
    const p99 = (list: number[]) => percentile([...list].sort((a, b) => a - b), 99);
    const first = times['first page']!;
    console.log(`pages by number, one at a time, 60 rounds, ${total} teachers (rows the same as OFFSET: ${same ? 'yes' : 'NO'}) (${loadNow()})`);
    for (const [kind, list] of Object.entries(times)) {
      console.log(`  ${kind}: p50 ${p50(list).toFixed(2)} ms, p99 ${p99(list).toFixed(2)} ms | vs first page p50 ${(p50(list) / p50(first)).toFixed(2)}×`);
    }
    // After a change: the next page by number reads the list by OFFSET and its anchors again; the one after uses them.
    const afterChange: number[] = [];
    const thenAnchored: number[] = [];
    for (let i = 0; i < 5; i++) {
      await database.db.updateTable('members').set({ certifying: 0.25 + i / 100 }).where('id', '=', `m${i + 1}`).execute();
      afterChange.push((await ask(Math.floor(lastPage * 0.75))).ms);
      thenAnchored.push((await ask(Math.floor(lastPage * 0.75) + 1)).ms);
    }
    console.log(`  after a change to the list, the first page by number (row ${Math.floor(total * 0.75)}): p50 ${p50(afterChange).toFixed(1)} ms; the next one: p50 ${p50(thenAnchored).toFixed(2)} ms`);
  }

  if (!ONLY_NUMBERED) {
    // Teachers page: the queries the console sends, list + count, through HTTP and as bare SQL.
    const scenarios: Array<{ label: string; query: string; pages: number }> = [
      { label: 'first page, e-mail order', query: 'sort=email&dir=asc', pages: 1 },
      { label: 'random page of 100, e-mail order', query: 'sort=email&dir=asc', pages: 90 },
      { label: 'random page, name order', query: 'sort=name&dir=desc', pages: 900 },
      { label: 'search "smith", e-mail order', query: 'search=smith', pages: 1 },
      { label: 'search "ann smith 1", e-mail order', query: 'search=ann%20smith%201', pages: 1 },
    ];
    for (const s of scenarios) {
      const pageSize = s.pages === 90 ? 100 : 10;
      const httpTasks = Array.from({ length: REQUESTS }, (_, i) => ({
        url: `${base}/members/teachers?${s.query}&page=${1 + ((i * 7919) % s.pages)}&pageSize=${pageSize}`,
        headers,
      }));
      const search = new URLSearchParams(s.query).get('search');
      const order = s.query.includes('name') ? 'lower(display_name) DESC, email DESC' : 'email ASC';
      const where = `organisation_id = $1 AND is_student = false AND revoked_at IS NULL${search ? ` AND (email LIKE $2 OR lower(display_name) LIKE $2)` : ''}`;
      const params = search ? [orgId, `%${search}%`] : [orgId];
      const statements = (i: number) => [
        {
          text: `SELECT m.*, l.name, l.book_quota, l.library_quota, l.apply_to_all FROM members m LEFT JOIN licenses l ON l.id = m.license_id
            WHERE ${where.replace(/(organisation_id|is_student|revoked_at|email|display_name)/g, 'm.$1')} ORDER BY ${order.replace(/(email|display_name)/g, 'm.$1')} LIMIT ${pageSize} OFFSET ${(1 + ((i * 7919) % s.pages) - 1) * pageSize}`,
          params,
        },
        { text: `SELECT count(*) FROM members WHERE ${where}`, params },
      ];
      // Not timed: 100 of each column first, so neither pays for a cold start (the server's first requests, the pool's
      // connections, the pages PostgreSQL has not read yet). Without it, the first scenario's HTTP p99 held the whole
      // server's warm-up (537 ms against a p50 of 72 ms in one run).
      const bareTasks = Array.from({ length: REQUESTS }, (_, i) => ({ statements: statements(i) }));
      await inClient(CONCURRENCY, httpTasks.slice(0, 100));
      if (!PGLITE) await inClient(CONCURRENCY, bareTasks.slice(0, 100));
      let http: Summary;
      let bareRun: Summary;
      if (PGLITE) {
        http = await inClient(CONCURRENCY, httpTasks);
        bareRun = await load(REQUESTS, CONCURRENCY, async (i) => void (await Promise.all(statements(i).map((st) => bare.query(st.text, st.params)))));
      } else {
        // HTTP and bare SQL in alternating rounds, so a change in the shared machine's load weighs on both alike.
        [http, bareRun] = await client.interleaved(CONCURRENCY, httpTasks, bareTasks);
      }
      console.log(`page (${s.label}, ${REQUESTS} requests, ${CONCURRENCY} concurrent): HTTP ${fmt(http)} | bare SQL ${fmt(bareRun)} | p99 ratio ${(http.p99 / bareRun.p99).toFixed(2)} (${loadNow()})`);
      if (s.pages === 1) {
        // One request at a time: the work per request, without queueing for the pool.
        const single = await inClient(1, Array.from({ length: 50 }, () => ({ url: `${base}/members/teachers?${s.query}&page=1&pageSize=${pageSize}`, headers })));
        const healthz = await inClient(1, Array.from({ length: 50 }, () => ({ url: `http://127.0.0.1:${PORT}/healthz`, headers: {} })));
        console.log(`  one at a time: HTTP ${fmt(single)} (GET /healthz ${fmt(healthz)})`);
      }
    }

    // Deep pages: the page at row 50,000 through its cursor (keyset) and through its page number (OFFSET), against the first page.
    const deepRow = Math.min(50_000, Math.floor(TEACHERS * 0.9) - 20);
    const atDeep = await fetch(`${base}/members/teachers?sort=email&dir=asc&page=${deepRow / 10}&pageSize=10`, { headers });
    const deepCursor = ((await atDeep.json()) as { nextCursor: string }).nextCursor;
    const deepScenarios: Array<{ label: string; query: string }> = [
      { label: 'first page', query: 'page=1&pageSize=10' },
      { label: `page after row ${deepRow} (cursor)`, query: `after=${encodeURIComponent(deepCursor)}&pageSize=10` },
      { label: `page ${deepRow / 10 + 1} (page number, OFFSET ${deepRow})`, query: `page=${deepRow / 10 + 1}&pageSize=10` },
    ];
    for (const d of deepScenarios) {
      const task = { url: `${base}/members/teachers?sort=email&dir=asc&${d.query}`, headers };
      const single = await inClient(1, Array.from({ length: 100 }, () => task));
      const loaded = await inClient(CONCURRENCY, Array.from({ length: REQUESTS }, () => task));
      console.log(`deep (${d.label}): one at a time ${fmt(single)} | ${CONCURRENCY} concurrent ${fmt(loaded)} (${loadNow()})`);
    }

    // Paging the way the console does: page 1 by number, then Next five times (after=nextCursor, the page
    // number echoed) and Previous five times back (before=previousCursor; page 1 by number), one at a time as a user clicks; the
    // same Next steps from row 50,000; and the jump to the last page, which the console asks for by number (OFFSET).
    // Sequential by nature (each step needs the answer before it), so sent from here, each kind in every round.
    type PageAnswer = { members: Array<{ email: string }>; total: number; nextCursor: string | null; previousCursor: string | null };
    const ask = async (query: string) => {
      const t = performance.now();
      const res = await fetch(`${base}/members/teachers?sort=email&dir=asc&pageSize=10&${query}`, { headers });
      const body = (await res.json()) as PageAnswer;
      if (!res.ok) throw new Error(`${query}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: performance.now() - t, body };
    };
    const STEPS = 5;
    const CHAINS = 40;
    const times = { first: [] as number[], next: [] as number[], previous: [] as number[], deepNext: [] as number[], last: [] as number[] };
    const lastPage = Math.ceil(((await ask('page=1')).body.total) / 10);
    let sameRows = true;
    for (let round = 0; round < CHAINS; round++) {
      const first = await ask('page=1');
      times.first.push(first.ms);
      let answer = first.body;
      const forward = [answer.members.map((m) => m.email)];
      for (let page = 2; page <= STEPS + 1; page++) {
        const step = await ask(`page=${page}&after=${encodeURIComponent(answer.nextCursor!)}`);
        times.next.push(step.ms);
        answer = step.body;
        forward.push(answer.members.map((m) => m.email));
      }
      for (let page = STEPS; page >= 1; page--) {
        // As the console: page 1 by number, without a cursor.
        const step = await ask(page === 1 ? 'page=1' : `page=${page}&before=${encodeURIComponent(answer.previousCursor!)}`);
        times.previous.push(step.ms);
        answer = step.body;
        if (answer.members.map((m) => m.email).join() !== forward[page - 1]!.join()) sameRows = false;
      }
      let deep = (await ask(`page=${deepRow / 10}&after=${encodeURIComponent(deepCursor)}`)).body;
      for (let step = 0; step < STEPS; step++) {
        const next = await ask(`page=${deepRow / 10 + 2 + step}&after=${encodeURIComponent(deep.nextCursor!)}`);
        times.deepNext.push(next.ms);
        deep = next.body;
      }
      times.last.push((await ask(`page=${lastPage}`)).ms);
      if (round === 0) {
        const byNumber = await Promise.all(forward.map((_, i) => ask(`page=${i + 1}`)));
        if (byNumber.some((n, i) => n.body.members.map((m) => m.email).join() !== forward[i]!.join())) sameRows = false;
      }
    }
    const ms = (list: number[]) => {
      const sorted = [...list].sort((a, b) => a - b);
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    };
    const firstPage = ms(times.first);
    const line = (label: string, list: number[]) => {
      const r = ms(list);
      return `  ${label} (${list.length}): p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms | vs first page p50 ${(r.p50 / firstPage.p50).toFixed(2)}×, p99 ${(r.p99 / firstPage.p99).toFixed(2)}×`;
    };
    console.log(`console paging, one request at a time, ${CHAINS} rounds (rows by cursor same as by page number: ${sameRows ? 'yes' : 'NO'}) (${loadNow()})`);
    console.log(line('first page (page=1)', times.first));
    console.log(line(`Next from page 1, pages 2–${STEPS + 1} (after=)`, times.next));
    console.log(line(`Previous back to page 1 (before=)`, times.previous));
    console.log(line(`Next from row ${deepRow} (after=)`, times.deepNext));
    console.log(line(`last page by number (page=${lastPage}, OFFSET ${(lastPage - 1) * 10})`, times.last));

    // CSV export of every active teacher: streamed over HTTP vs COPY TO STDOUT, with the server's memory.
    const memory = sampleMemoryPeak();
    t0 = performance.now();
    const res = await fetch(`${base}/members/teachers/export.csv?scope=all`, { headers });
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
    const exportMs = performance.now() - t0;
    const peak = memory.stop();
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    if (PGLITE) {
      console.log(`export: ${mb(bytes)} MB CSV in ${(exportMs / 1000).toFixed(2)} s over HTTP (PGlite: no COPY comparison)`);
    } else {
      t0 = performance.now();
      const copy = await exec('psql', [dbUrl, '-qAt', '-c',
        `COPY (SELECT m.email, m.display_name, CASE WHEN m.pending THEN 'No' ELSE 'Yes' END, l.book_quota, m.calevel1_at FROM members m LEFT JOIN licenses l ON l.id = m.license_id WHERE m.organisation_id = '${orgId}' AND NOT m.is_student AND m.revoked_at IS NULL ORDER BY m.email) TO STDOUT WITH CSV HEADER`,
      ], { maxBuffer: 256 * 1024 * 1024 });
      const copyMs = performance.now() - t0;
      console.log(`export: ${mb(bytes)} MB CSV in ${(exportMs / 1000).toFixed(2)} s over HTTP | COPY TO STDOUT (psql) ${mb(copy.stdout.length)} MB in ${(copyMs / 1000).toFixed(2)} s`);
      // Three more of each, alternating, so the shared machine's load weighs on both alike: the medians. The HTTP
      // exports are read by the worker-thread client (as psql reads COPY in its own process), not in the server's thread.
      // HTTP as fetch asks for it (gzip, as a browser does), and without compression (the bytes COPY writes).
      const times: { http: number[]; identity: number[]; copy: number[] } = { http: [], identity: [], copy: [] };
      const exportUrl = `${base}/members/teachers/export.csv?scope=all`;
      for (let round = 0; round < 3; round++) {
        times.http.push((await inClient(1, [{ url: exportUrl, headers }])).p50);
        times.identity.push((await inClient(1, [{ url: exportUrl, headers: { ...headers, 'accept-encoding': 'identity' } }])).p50);
        const t = performance.now();
        await exec('psql', [dbUrl, '-qAt', '-c',
          `COPY (SELECT m.email, m.display_name, CASE WHEN m.pending THEN 'No' ELSE 'Yes' END, l.book_quota, m.calevel1_at FROM members m LEFT JOIN licenses l ON l.id = m.license_id WHERE m.organisation_id = '${orgId}' AND NOT m.is_student AND m.revoked_at IS NULL ORDER BY m.email) TO STDOUT WITH CSV HEADER`,
        ], { maxBuffer: 256 * 1024 * 1024 });
        times.copy.push(performance.now() - t);
      }
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[1]!;
      console.log(`export, median of 3 alternating: HTTP (gzip) ${(median(times.http) / 1000).toFixed(2)} s | HTTP (no compression) ${(median(times.identity) / 1000).toFixed(2)} s | COPY ${(median(times.copy) / 1000).toFixed(2)} s | ratio ${(median(times.http) / median(times.copy)).toFixed(2)} (gzip), ${(median(times.identity) / median(times.copy)).toFixed(2)} (no compression) (${loadNow()})`);
    }
    console.log(`export memory (whole process: server + benchmark client): RSS +${mb(peak.rss - memory.before.rss)} MB, heap +${mb(peak.heapUsed - memory.before.heapUsed)} MB`);

    // Import 5,000 new e-mails (with a licence for each) in one request.
    const emails = Array.from({ length: 5000 }, (_, i) => `new${i}@district.example.org`);
    const licenses = Object.fromEntries(emails.map((e) => [e, 'bench-lic-40']));
    t0 = performance.now();
    const imported = await fetch(`${base}/members/import/teachers`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ emails, licenses }) });
    const importBody = (await imported.json()) as { newMembers: unknown[] };
    console.log(`import: 5,000 e-mails with licences in ${((performance.now() - t0) / 1000).toFixed(2)} s (${imported.status}, ${importBody.newMembers.length} new)`);
    t0 = performance.now();
    const again = await fetch(`${base}/members/import/teachers`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ emails, licenses }) });
    await again.arrayBuffer();
    console.log(`import again (all existing): ${((performance.now() - t0) / 1000).toFixed(2)} s`);

    // Assign one licence to 10,000 teachers who hold another one.
    const ids = (await database.db.selectFrom('members').select('id').where('organisation_id', '=', orgId).where('license_id', '=', 'bench-lic-40').where('revoked_at', 'is', null).limit(10_000).execute()).map((r) => r.id);
    t0 = performance.now();
    const assigned = await fetch(`${base}/licenses/bench-lic-1000`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(ids) });
    const assignBody = (await assigned.json()) as { assignedMemberIds?: unknown[] };
    console.log(`bulk assign: ${ids.length} teachers in ${((performance.now() - t0) / 1000).toFixed(2)} s (${assigned.status}, ${assignBody.assignedMemberIds?.length} assigned)`);
  }
} finally {
  client.close();
  await app.close();
  await pool?.end();
  await database.close();
  if (!values.keep && !PGLITE) await drop();
}
