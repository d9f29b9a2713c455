/**
 * Audit log benchmark: entries across organisations behind the real server (docs/audit-log.md, docs/performance.md).
 *  - pages of one organisation's log (the first; filtered by action, actor, target, dates, outcome; the next by cursor),
 *    one request at a time (p99), and at 50 in flight against the same statement sent straight to the database;
 *  - the CSV export of one organisation's 1,000,000 entries against COPY … TO STDOUT of the same rows, with the
 *    server's memory growth: the export is read by curl in a child process (as psql reads COPY), so this process's
 *    memory is the server's, not the client's too. Run with `node --expose-gc` (NODE_OPTIONS) to start it after a
 *    collection.
 * The seed is one INSERT … SELECT over generate_series: one organisation holds `--export` entries (the export's), the
 * others share the rest.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres npx tsx bench/audit-log.bench.ts [--entries N] [--export N] [--organisations N] [--requests N] [--concurrency N] [--rounds N] [--only export] [--keep] [--reuse]
 *   npx tsx bench/audit-log.bench.ts --db pglite --entries 500000 --export 100000   (embedded PGlite in memory; no COPY)
 *
 * BENCH_DATABASE_URL is an admin URL: the benchmark makes its own database (quire_bench_audit), dropped afterwards
 * unless --keep; --reuse keeps the entries of a kept run.
 */
import { execFile } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';
import { sql } from 'kysely';
import { AUDIT_PAGE_SIZE, type AuditEventsPage, type AuditFilters } from '@quire/core';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { auditEventsQuery } from '../apps/server/src/modules/audit/audit.repository.js';
import { signIn } from '../apps/server/test/auth.js';
import { testEnv } from '../apps/server/test/helper.js';
import { benchDatabase, loadNow, machineLine, percentile, sampleMemoryPeak, startLoadClient, summary, type ClientTask, type Summary } from './load.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '5000000' },
    export: { type: 'string', default: '1000000' },
    organisations: { type: 'string', default: '50' },
    requests: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    /** postgres (default) or pglite: the embedded database, in memory. */
    db: { type: 'string', default: 'postgres' },
    /** export: only the export (the pages are skipped). */
    only: { type: 'string' },
    /** Exports over HTTP and COPYs of the same rows, alternating, whose medians are compared (0: the first export only). */
    rounds: { type: 'string', default: '5' },
  },
});
const ENTRIES = Number(values.entries);
const EXPORTED = Number(values.export);
const ORGANISATIONS = Number(values.organisations);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const PGLITE = values.db === 'pglite';
const PORT = 3733;
const DB_NAME = 'quire_bench_audit';
const { dbUrl, recreate, drop } = benchDatabase(DB_NAME, 'postgres://postgres@127.0.0.1:5433/postgres');
const exec = promisify(execFile);

const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

if (!PGLITE && !values.reuse) {
  await recreate();
}
const env = testEnv({ DATABASE_URL: PGLITE ? undefined : dbUrl, PUBLIC_URL: `http://127.0.0.1:${PORT}`, PORT });
const database = await openDatabase({ ...env, inMemory: PGLITE });
await migrateToLatest(database.db);
const app = await buildApp({ env, database, logger: false });
/** The load generator and the bare statements run in a worker thread (load-client.mjs), not in the server's. */
const client = startLoadClient(PGLITE ? undefined : { databaseUrl: dbUrl, poolSize: env.DATABASE_POOL_SIZE });
const BIG = 'bench-audit-0';
const DISTRICT = 'bench-audit-district';
const DISTRICT_SCHOOLS = Array.from({ length: 10 }, (_, i) => `bench-audit-${i + 1}`);

try {
  console.log(
    machineLine(PGLITE ? 'PGlite (one connection, in memory)' : `PostgreSQL, pool ${env.DATABASE_POOL_SIZE}`),
  );
  const seeded = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM audit_events`.execute(database.db)).rows[0]?.n ?? 0);
  if (seeded < ENTRIES) {
    let t0 = performance.now();
    await database.db
      .insertInto('organisations')
      .values(Array.from({ length: ORGANISATIONS }, (_, i) => ({ id: `bench-audit-${i}`, name: `Benchmark School ${i}` })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    // One statement: the first EXPORTED entries are the big organisation's, the rest spread over the others; two years
    // of time, newest at g = 1; 40 actors an organisation, 2,000 teachers as targets, a refusal in 200.
    const others = ORGANISATIONS - 1;
    await sql`
      INSERT INTO audit_events (organisation_id, actor_user_id, actor_email, actor_name, actor_kind, action, target_type, target_ids, targets,
        old_value, new_value, details, ip, user_agent, outcome, error_code, created_at)
      SELECT
        CASE WHEN g <= ${EXPORTED} THEN ${BIG} ELSE 'bench-audit-' || (1 + g % ${others}) END,
        'u' || (g % 40), 'admin' || (g % 40) || '@district.example.org',
        (ARRAY['Ann','Ben','Cara','Dev','Eli','Fay','Gus','Hana'])[1 + g % 8] || ' ' || (ARRAY['Smith','Jones','Lee','Patel','Garcia'])[1 + g % 5] || ' ' || (g % 40),
        CASE WHEN g % 97 = 0 THEN 'provider_staff' ELSE 'user' END,
        (ARRAY['licenses.assign','licenses.remove','members.import','members.revoke','settings.update','admins.import','console.sign_in','members.export','libraries.visit','lti.launch'])[1 + g % 10],
        'member', ARRAY['m' || (g % 2000)],
        jsonb_build_array(jsonb_build_object('type', 'member', 'id', 'm' || (g % 2000), 'label', 'Teacher ' || (g % 2000) || ' <teacher' || (g % 2000) || '@district.example.org>')),
        CASE WHEN g % 10 IN (0, 1, 4) THEN jsonb_build_object('license', 'none') END,
        CASE WHEN g % 10 IN (0, 1, 4) THEN jsonb_build_object('license', 'Premium') END,
        '{}'::jsonb, '10.0.' || (g % 250) || '.' || (g % 199), 'Mozilla/5.0 (benchmark)',
        CASE WHEN g % 200 = 0 THEN 'refused' ELSE 'success' END,
        CASE WHEN g % 200 = 0 THEN 'not_enough_licenses' END,
        now() - make_interval(secs => g * (730.0 * 86400 / ${ENTRIES}))
      FROM generate_series(${seeded + 1}::bigint, ${ENTRIES}::bigint) g`.execute(database.db);
    await sql`VACUUM (ANALYZE) audit_events`.execute(database.db);
    console.log(`seed: ${ENTRIES - seeded} entries in ${((performance.now() - t0) / 1000).toFixed(1)} s (not part of the figures)`);
    t0 = performance.now();
  }
  const bigCount = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM audit_events WHERE organisation_id = ${BIG}`.execute(database.db)).rows[0]?.n);
  console.log(`${ENTRIES} entries, ${ORGANISATIONS} organisations; the one read holds ${bigCount}`);

  // A district over ten of the schools (no entries of its own): its log merges theirs.
  await database.db.insertInto('organisations').values({ id: DISTRICT, name: 'Benchmark District' }).onConflict((oc) => oc.doNothing()).execute();
  await database.db.updateTable('organisations').set({ parent_id: DISTRICT }).where('id', 'in', DISTRICT_SCHOOLS).execute();
  const adminEmail = 'bench-audit-admin@district.example.org';
  await database.db.insertInto('admins').values([{ organisation_id: BIG, email: adminEmail }, { organisation_id: DISTRICT, email: adminEmail }]).onConflict((oc) => oc.doNothing()).execute();
  const { headers } = await signIn(app, { email: adminEmail });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${PORT}/api/organisations/${BIG}`;
  const districtBase = `http://127.0.0.1:${PORT}/api/organisations/${DISTRICT}`;

  // A cursor into the middle of the log: a page an admin reaches by 'Show older entries' many times.
  const middle = (await sql<{ at: string; id: string }>`
    SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id::text AS id
    FROM audit_events WHERE organisation_id = ${BIG} ORDER BY created_at DESC, id DESC OFFSET ${Math.floor(bigCount / 2)} LIMIT 1`.execute(database.db)).rows[0]!;
  // The read organisation's entries are the newest of the seed (its latest 146 days at 500,000 and 100,000; its latest
  // 146 too at 5,000,000 and 1,000,000): a month three months ago holds about a fifth of them.
  const monthTo = new Date(Date.now() - 90 * 86400_000);
  const monthFrom = new Date(monthTo.getTime() - 30 * 86400_000).toISOString();
  const scenarios: Array<{ label: string; filters: Partial<AuditFilters> & { cursor?: string }; seek?: { at: string; id: string }; district?: boolean; scope?: string[] }> = [
    { label: 'first page', filters: {} },
    { label: 'a page half-way down (cursor)', filters: { cursor: Buffer.from(`${middle.at}|${middle.id}`).toString('base64url') }, seek: middle },
    { label: 'action: one', filters: { action: ['admins.import'] } },
    { label: 'action: two', filters: { action: ['licenses.assign', 'licenses.remove'] } },
    { label: 'actor: common ("ann")', filters: { actor: 'ann' } },
    { label: 'actor: rare ("admin7@")', filters: { actor: 'admin7@' } },
    { label: 'target: one teacher ("teacher1234@")', filters: { target: 'teacher1234@' } },
    { label: 'target: none matches', filters: { target: 'nobody-at-all' } },
    { label: 'dates: a month three months ago', filters: { from: monthFrom, to: monthTo.toISOString() } },
    { label: 'outcome: refused', filters: { outcome: 'refused' } },
    { label: `a district of ${DISTRICT_SCHOOLS.length} schools: first page`, filters: {}, district: true, scope: [DISTRICT, ...DISTRICT_SCHOOLS] },
    { label: `a district of ${DISTRICT_SCHOOLS.length} schools: actor, rare`, filters: { actor: 'admin7@' }, district: true, scope: [DISTRICT, ...DISTRICT_SCHOOLS] },
    { label: 'actor + action + dates', filters: { actor: 'admin3@', action: ['licenses.assign'], from: monthFrom, to: monthTo.toISOString() } },
  ];
  const urlOf = (filters: Partial<AuditFilters> & { cursor?: string }, district = false) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(filters)) if (v !== undefined) q.set(k, Array.isArray(v) ? v.join(',') : String(v));
    return `${district ? districtBase : base}/audit-events?${q}`;
  };
  const bareOf = (s: (typeof scenarios)[number]) => {
    const { cursor: _cursor, ...filters } = s.filters;
    const compiled = auditEventsQuery(s.scope ?? [BIG], { actor: undefined, target: undefined, ...filters }, s.seek ?? null, AUDIT_PAGE_SIZE + 1).compile(database.db);
    return { text: compiled.sql, params: [...compiled.parameters] };
  };

  // Each page one at a time: 100 requests a scenario after 10 untimed; the rows checked against the bare statement.
  if (values.only !== 'export') console.log(`pages one at a time (100 each) (${loadNow()})`);
  for (const s of values.only === 'export' ? [] : scenarios) {
    const times: number[] = [];
    let body: AuditEventsPage | undefined;
    for (let i = 0; i < 110; i++) {
      const t = performance.now();
      const res = await fetch(urlOf(s.filters, s.district), { headers });
      if (!res.ok) throw new Error(`${s.label}: ${res.status} ${await res.text()}`);
      body = (await res.json()) as AuditEventsPage;
      if (i >= 10) times.push(performance.now() - t);
    }
    const bare = bareOf(s);
    const bareTimes: number[] = [];
    let bareIds: string[] = [];
    for (let i = 0; i < 110; i++) {
      const t = performance.now();
      const rows = (await bareQuery(bare.text, bare.params)) as Array<{ id: string }>;
      if (i >= 10) bareTimes.push(performance.now() - t);
      bareIds = rows.slice(0, AUDIT_PAGE_SIZE).map((r) => r.id);
    }
    const same = bareIds.join() === (body?.events ?? []).map((e) => e.id).join();
    const sorted = [...times].sort((a, b) => a - b);
    const bareSorted = [...bareTimes].sort((a, b) => a - b);
    console.log(
      `  ${s.label}: ${body?.events.length ?? 0} rows${same ? '' : ' (NOT the bare rows)'} | HTTP p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))} | bare SQL p50 ${ms(percentile(bareSorted, 50))}, p99 ${ms(percentile(bareSorted, 99))}`,
    );
  }

  // 50 in flight: HTTP and the bare statement alternate in four rounds, so the machine's load weighs on both alike.
  if (!PGLITE && values.only !== 'export') {
    console.log(`pages at ${CONCURRENCY} in flight, ${REQUESTS} each (${loadNow()})`);
    for (const s of scenarios) {
      const http: ClientTask[] = Array.from({ length: REQUESTS }, () => ({ url: urlOf(s.filters, s.district), headers }));
      const bare = bareOf(s);
      const statements: ClientTask[] = Array.from({ length: REQUESTS }, () => ({ statements: [bare] }));
      await client.run(CONCURRENCY, http.slice(0, 100));
      await client.run(CONCURRENCY, statements.slice(0, 100));
      const sides = [{ tasks: http, latencies: [] as number[], seconds: 0 }, { tasks: statements, latencies: [] as number[], seconds: 0 }];
      for (let round = 0; round < 4; round++) {
        for (const side of sides) {
          const size = Math.ceil(side.tasks.length / 4);
          const answer = await client.run(CONCURRENCY, side.tasks.slice(round * size, (round + 1) * size));
          side.latencies.push(...answer.latencies);
          side.seconds += answer.seconds;
        }
      }
      const [h, b] = sides.map((side) => summary(side.latencies, side.seconds)) as [Summary, Summary];
      console.log(`  ${s.label}: HTTP p50 ${ms(h.p50)}, p99 ${ms(h.p99)}, ${Math.round(h.rps)} req/s | bare p50 ${ms(b.p50)}, p99 ${ms(b.p99)} | p99 ratio ${(h.p99 / b.p99).toFixed(2)}`);
    }
  }

  // The export of the big organisation: streamed over HTTP vs COPY of the same rows. Both are read by a child process
  // (curl for HTTP, psql for COPY), so this process's memory is the server's alone (and the idle load client's).
  {
    const exportUrl = `${base}/audit-events.csv`;
    const curlArgs = ['-sS', '--fail', '-o', '/dev/null', '-w', '%{size_download}', '-H', 'accept-encoding: identity', ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), exportUrl];
    const exportOnce = async () => {
      const t = performance.now();
      const { stdout } = await exec('curl', curlArgs);
      return { ms: performance.now() - t, bytes: Number(stdout) };
    };
    // Memory of the first export after a collection, sampled every 20 ms while it streams: RSS and the JS heap.
    global.gc?.();
    const memory = sampleMemoryPeak();
    const memBefore = memory.before;
    // The server's CPU time too: unlike the wall time, it hardly depends on what else the machine runs.
    const cpuBefore = process.cpuUsage();
    const first = await exportOnce();
    const cpu = process.cpuUsage(cpuBefore);
    const peak = memory.stop();
    // What the export left behind once collected: garbage not yet collected is not kept memory.
    global.gc?.();
    const after = process.memoryUsage();
    console.log(
      `export: ${mb(first.bytes)} MB CSV of ${bigCount} entries in ${(first.ms / 1000).toFixed(2)} s over HTTP (read by curl); server CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; server memory RSS +${mb(peak.rss - memBefore.rss)} MB, heap +${mb(peak.heapUsed - memBefore.heapUsed)} MB at peak; after a collection RSS +${mb(after.rss - memBefore.rss)} MB, heap +${mb(after.heapUsed - memBefore.heapUsed)} MB (${loadNow()})`,
    );
    if (!PGLITE && Number(values.rounds) > 0) {
      const copyStatement = `COPY (SELECT to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), e.actor_name, e.actor_email, e.actor_kind, e.action, e.targets, e.old_value, e.new_value, e.ip, e.outcome, e.error_code, e.target_ids, e.user_agent, e.id FROM audit_events e JOIN organisations o ON o.id = e.organisation_id WHERE e.organisation_id = '${BIG}' ORDER BY e.created_at DESC, e.id DESC) TO STDOUT WITH CSV HEADER`;
      const copyOnce = async () => {
        const t = performance.now();
        await exec('psql', [dbUrl, '-q', '-o', '/dev/null', '-c', copyStatement], { maxBuffer: 1024 * 1024 });
        return performance.now() - t;
      };
      const times = { http: [] as number[], copy: [] as number[] };
      const rounds = Number(values.rounds);
      for (let i = 0; i < rounds; i++) {
        times.http.push((await exportOnce()).ms);
        times.copy.push(await copyOnce());
      }
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
      const each = (list: number[]) => list.map((t) => (t / 1000).toFixed(2)).join(' ');
      console.log(`export, each round: HTTP ${each(times.http)} s | COPY ${each(times.copy)} s`);
      console.log(`export, median of ${rounds} alternating: HTTP (curl) ${(median(times.http) / 1000).toFixed(2)} s | COPY TO STDOUT (psql) ${(median(times.copy) / 1000).toFixed(2)} s | ratio ${(median(times.http) / median(times.copy)).toFixed(2)} (${loadNow()})`);
    }
  }
} finally {
  client.close();
  await app.close();
  await database.close();
  if (!PGLITE && !values.keep) await drop();
}

/** A statement straight on the database: the server's pool on PostgreSQL, PGlite's one connection. */
async function bareQuery(text: string, params: unknown[]): Promise<unknown[]> {
  if (database.pool) return (await database.pool.query(text, params)).rows as unknown[];
  return (await database.pglite!.query(text, params)).rows;
}
