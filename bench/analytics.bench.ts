/**
 * Analytics benchmark: the real server on PostgreSQL (or PGlite).
 *  - ingestion: POST /analytics/events with 1,000-event batches through HTTP, a few batches in flight, and how far
 *    the rollups lag behind (they are written in the intake's own statement, so the benchmark checks they match
 *    the events at once); a retried batch to show it is skipped;
 *  - the dashboard: every chart and tile request of the Weekly view over 18 months, p50 and p99 with 50 in flight
 *    and one at a time, next to the bare rollup query sent straight to the database in the same run.
 * Each dashboard request is measured twice: on a server without the answer cache (ANALYTICS_CACHE_SECONDS=0, every
 * request reaches the database) and on a second server on the same database with it (--cache-seconds), which on
 * PostgreSQL runs in a process of its own (bench/server-process.ts; --cached-in-process for the former layout). The three
 * columns at 50 in flight (HTTP, bare, HTTP with the cache) are taken in four alternating rounds, after an untimed
 * warm-up of both servers (the cached one's kept answers then dropped, so each question's first request still makes it).
 * The volume is a parameter: --events (bulk-loaded history of one organisation), --teachers, --students.
 * Prints the figures recorded in docs/performance.md ("Analytics"). On PostgreSQL the HTTP requests, the intake's
 * batches and the bare queries are all sent from a worker thread (load-client.mjs), so the server's event loop
 * serves only the server; on PGlite the bare queries run in the main thread (the database lives there).
 * --keep keeps the database; --reuse measures again on a kept one without seeding the district again.
 * --requests is per question and column (10,000 by default): with 50 in flight, one pause of the machine holds up 50
 * requests at once, so of 2,000 requests (the default before) the 20 slowest, the p99, were often one pause alone;
 * of 10,000 the p99 needs two or more.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5545/postgres npx tsx bench/analytics.bench.ts \
 *     [--events 10000000] [--teachers 100000] [--students 1000000] [--ingest 100000] [--requests 10000] [--cache-seconds 30] [--keep]
 *   npx tsx bench/analytics.bench.ts --db pglite --events 1000000 --teachers 10000 --students 100000 --ingest 20000
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { signIn } from '../apps/server/test/auth.js';
import { testEnv } from '../apps/server/test/helper.js';
import { adminQuery, benchDatabase, load, percentile, startLoadClient, summary, type ClientTask, type Summary } from './load.js';
import { startServerProcess } from './server-process.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000000' },
    teachers: { type: 'string', default: '100000' },
    students: { type: 'string', default: '1000000' },
    /** Events sent through the intake endpoint (in 1,000-event batches). */
    ingest: { type: 'string', default: '100000' },
    /** Batches in flight during ingestion. */
    posters: { type: 'string', default: '4' },
    /** Requests per column and question, sent in ROUNDS alternating rounds. */
    requests: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '50' },
    days: { type: 'string', default: '548' },
    /** Days the ingested events spread over: live intake reports today's sessions (1); a backfill spreads wider. */
    'ingest-days': { type: 'string', default: '1' },
    /** ANALYTICS_CACHE_SECONDS of the second server, which answers the dashboard from its answer cache. */
    'cache-seconds': { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
    /** The cached server in this process (as before `server-process.ts`; always so on PGlite, which lives here). */
    'cached-in-process': { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
    db: { type: 'string', default: 'postgres' },
  },
});
const EVENTS = Number(values.events);
const TEACHERS = Number(values.teachers);
const STUDENTS = Number(values.students);
const INGEST = Number(values.ingest);
const POSTERS = Number(values.posters);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
/** Each question's HTTP, bare and cached columns are measured in this many alternating rounds. */
const ROUNDS = 4;
const DAYS = Number(values.days);
const INGEST_DAYS = Number(values['ingest-days']);
const CACHE_SECONDS = Number(values['cache-seconds']);
const PGLITE = values.db === 'pglite';
const PORT = 3741;
const CACHED_PORT = 3743;
const DB_NAME = 'quire_bench_analytics';
const KEY = 'bench-analytics-intake-key-0123456789abcdef';
const { adminUrl, dbUrl, recreate, drop } = benchDatabase(DB_NAME, 'postgres://postgres@127.0.0.1:5545/postgres');

const ms = (n: number) => `${n.toFixed(1)} ms`;
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);

const databaseExists = async () => (await adminQuery(adminUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount === 1;
const REUSE = !PGLITE && values.reuse && (await databaseExists());
if (!PGLITE && !REUSE) {
  await recreate();
}

/** The load generator in a worker thread (bench/load-client.mjs), with its own pool for the bare queries. */
const client = startLoadClient(PGLITE ? undefined : { databaseUrl: dbUrl, poolSize: 10 });
const inClient = client.run;
const env = testEnv({
  DATABASE_URL: PGLITE ? undefined : dbUrl, PUBLIC_URL: `http://127.0.0.1:${PORT}`, PORT, ANALYTICS_INGEST_KEY: KEY, ANALYTICS_CACHE_SECONDS: 0,
});
const database = await openDatabase({ ...env, inMemory: PGLITE });
await migrateToLatest(database.db);
/** Two servers on one database: without the answer cache (every request reaches the database) and with it. */
const app = await buildApp({ env, database, logger: false });
/**
 * The cached server, in a process of its own on PostgreSQL (bench/server-process.ts): in this process it would share
 * a heap with the server without the cache, whose every request makes its answer from the database, and pause in that
 * server's collections.
 */
const CACHED_IN_PROCESS = PGLITE || values['cached-in-process'];
const cachedEnv = { ...env, PORT: CACHED_PORT, ANALYTICS_CACHE_SECONDS: CACHE_SECONDS };
const cachedApp = CACHED_IN_PROCESS ? await buildApp({ env: cachedEnv, database, logger: false }) : null;
const cachedProcess = CACHED_IN_PROCESS
  ? null
  : await startServerProcess({ DATABASE_URL: cachedEnv.DATABASE_URL, PUBLIC_URL: cachedEnv.PUBLIC_URL, PORT: CACHED_PORT, ANALYTICS_INGEST_KEY: KEY, ANALYTICS_CACHE_SECONDS: CACHE_SECONDS });
const pool = PGLITE ? null : new pg.Pool({ connectionString: dbUrl, max: env.DATABASE_POOL_SIZE });
const bare = async (text: string, params: unknown[]) => (pool ? (await pool.query(text, params)).rows : (await database.pglite!.query(text, params)).rows);

const OS = ['Windows', 'ChromeOS', 'macOS', 'iOS', 'Android'];
const PROVIDERS = ['google', 'office365', 'password', 'clever'];
const DOMAINS = ['students.district.example.org', 'district.example.org', 'gmail.com', 'outlook.com', 'k12.example.net'];

try {
  const load1 = () => loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`Node ${process.version}, load average ${load1()}, ${PGLITE ? 'PGlite (one connection)' : `PostgreSQL, pool ${env.DATABASE_POOL_SIZE}`}`);
  console.log(`the server with the answer cache: ${CACHED_IN_PROCESS ? 'in this process, beside the one without it' : 'in a process of its own'}`);
  console.log(`scale: ${EVENTS.toLocaleString('en')} events over ${DAYS} days, ${TEACHERS.toLocaleString('en')} teachers, ${STUDENTS.toLocaleString('en')} students; ingest ${INGEST.toLocaleString('en')} events through HTTP`);
  await app.listen({ port: PORT, host: '127.0.0.1' });
  await cachedApp?.listen({ port: CACHED_PORT, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${PORT}`;
  const cachedBase = `http://127.0.0.1:${CACHED_PORT}`;

  // ---------------------------------------------------------------- ingestion through the endpoint
  const small = `bench-intake-${Date.now().toString(36)}`;
  await database.db.insertInto('organisations').values({ id: small, name: 'Intake District' }).execute();
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const makeBatch = (n: number) =>
    Array.from({ length: n }, (_, i) => {
      const student = i % 3 !== 0;
      return {
        id: randomUUID(), organisationId: small, userId: `${student ? 's' : 't'}${Math.floor(Math.random() * (student ? STUDENTS : TEACHERS))}`,
        userKind: student ? 'student' : 'teacher', startedAt: new Date(Date.now() - Math.floor(Math.random() * INGEST_DAYS * 86_400_000)).toISOString(),
        durationSeconds: 60 + (i % 3000), os: OS[i % OS.length], provider: PROVIDERS[i % PROVIDERS.length], emailDomain: i % 7 === 0 ? null : DOMAINS[i % DOMAINS.length],
      };
    });
  const batches = Math.ceil(INGEST / 1000);
  const bodies = Array.from({ length: batches }, () => JSON.stringify({ events: makeBatch(1000) }));
  const intakeHeaders = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const post = (body: string) => fetch(`${base}/analytics/events`, { method: 'POST', headers: intakeHeaders, body });
  const sessionsRolled = async () =>
    Number(((await bare(`SELECT coalesce(sum(total), 0)::bigint AS n FROM analytics_daily WHERE organisation_id = $1 AND metric = 'sessions'`, [small]))[0] as { n: string }).n);
  // Throughput: every batch from the worker thread, POSTERS in flight.
  const ingest = await inClient(POSTERS, bodies.map((body) => ({ url: `${base}/analytics/events`, method: 'POST', headers: intakeHeaders, body })));
  const ingested = batches * 1000;
  // Rollup lag: five more batches one after the other, each followed at once by a read of the rollups.
  const lags: number[] = [];
  let firstRead = 0;
  let expected = await sessionsRolled();
  for (let n = 0; n < 5; n++) {
    const res = await post(JSON.stringify({ events: makeBatch(1000) }));
    if (res.status !== 200) throw new Error(`intake HTTP ${res.status}: ${await res.text()}`);
    expected += ((await res.json()) as { accepted: number }).accepted;
    const l0 = performance.now();
    for (let tries = 1; ; tries++) {
      if ((await sessionsRolled()) >= expected) {
        if (tries === 1) firstRead++;
        break;
      }
    }
    lags.push(performance.now() - l0);
  }
  const [check] = (await bare(
    `SELECT (SELECT count(*) FROM analytics_events WHERE organisation_id = $1)::bigint AS events,
            (SELECT sum(total) FROM analytics_daily WHERE organisation_id = $1 AND metric = 'sessions')::bigint AS rolled`, [small])) as { events: string; rolled: string }[];
  lags.sort((a, b) => a - b);
  console.log(`ingestion: ${ingested.toLocaleString('en')} events (spread over ${INGEST_DAYS} day(s)) in ${batches} batches of 1,000, ${POSTERS} in flight: ${Math.round(ingested / ingest.seconds).toLocaleString('en')} events/s; batch p50 ${ms(ingest.p50)}, p99 ${ms(ingest.p99)}`);
  console.log(`rollup lag after the answer: the batch was in the rollups at the first read in ${firstRead} of ${lags.length} samples (that read: p50 ${ms(percentile(lags, 50))}, max ${ms(lags[lags.length - 1] ?? NaN)}); events ${check?.events}, sessions in rollups ${check?.rolled}`);
  let t0 = performance.now();
  const retry = await post(bodies[0] ?? '');
  console.log(`retried batch: ${JSON.stringify(await retry.json())} in ${ms(performance.now() - t0)}`);

  // ---------------------------------------------------------------- the district: bulk history
  const orgId = 'bench-district';
  if (REUSE) console.log('seed: reusing the kept district (--reuse)');
  else {
  await database.db.insertInto('organisations').values({ id: orgId, name: 'Benchmark District' }).execute();
  t0 = performance.now();
  await sql`
    INSERT INTO members (id, organisation_id, email, display_name, role, pending)
    SELECT 'm' || g, ${orgId}, 'teacher' || g || '@district.example.org', 'Teacher ' || g, 600, false FROM generate_series(1, ${TEACHERS}::int) g`.execute(database.db);
  await sql`
    INSERT INTO libraries (id, organisation_id, owner_member_id, name, created_at)
    SELECT 'l' || g, ${orgId}, 'm' || g, 'Library ' || g, now() - (g % ${DAYS}) * interval '1 day' FROM generate_series(1, ${TEACHERS}::int) g`.execute(database.db);
  await sql`
    INSERT INTO books (id, organisation_id, library_id, title, created_at)
    SELECT 'b' || g, ${orgId}, 'l' || (1 + g % ${TEACHERS}), 'Book ' || g, now() - (g % ${DAYS}) * interval '1 day' - (g % 86400) * interval '1 second'
    FROM generate_series(1, ${TEACHERS * 3}::int) g`.execute(database.db);
  console.log(`seed: ${TEACHERS.toLocaleString('en')} teachers, libraries and ${(TEACHERS * 3).toLocaleString('en')} books in ${seconds(t0)} s (not part of the figures)`);
  t0 = performance.now();
  const CHUNK = 1_000_000;
  for (let start = 0; start < EVENTS; start += CHUNK) {
    const end = Math.min(EVENTS, start + CHUNK);
    await sql`
      INSERT INTO analytics_events (event_id, organisation_id, occurred_at, user_id, user_kind, os, provider, email_domain, duration_seconds)
      SELECT 'e' || g, ${orgId}, ${new Date(today).toISOString()}::timestamptz - (1 + g % ${DAYS}) * interval '1 day' + (g % 50000) * interval '1 second',
        CASE WHEN g % 3 = 0 THEN 't' || (g % ${TEACHERS}) ELSE 's' || ((g::bigint * 7919) % ${STUDENTS}) END,
        CASE WHEN g % 3 = 0 THEN 'teacher' ELSE 'student' END,
        (ARRAY['Windows','ChromeOS','macOS','iOS','Android'])[1 + g % 5],
        (ARRAY['google','office365','password','clever'])[1 + (g / 5) % 4],
        CASE WHEN g % 7 = 0 THEN NULL ELSE (ARRAY['students.district.example.org','district.example.org','gmail.com','outlook.com','k12.example.net'])[1 + (g / 3) % 5] END,
        60 + g % 3000
      FROM generate_series(${start + 1}::int, ${end}::int) g`.execute(database.db);
  }
  console.log(`seed: ${EVENTS.toLocaleString('en')} raw events in ${seconds(t0)} s (not part of the figures)`);
  t0 = performance.now();
  // The same rollups the intake keeps, built once from the bulk-loaded events (as the demo seed does).
  const day = sql`(occurred_at AT TIME ZONE 'UTC')::date`;
  const rollup = (metric: string, name: ReturnType<typeof sql>, value: 'count' | 'duration', where = sql`true`) => sql`
    INSERT INTO analytics_daily (organisation_id, metric, day, name, students, teachers, total)
    SELECT organisation_id, ${metric}, ${day}, ${name},
      ${value === 'count' ? sql`count(*) FILTER (WHERE user_kind = 'student')` : sql`coalesce(sum(duration_seconds) FILTER (WHERE user_kind = 'student'), 0)`},
      ${value === 'count' ? sql`count(*) FILTER (WHERE user_kind = 'teacher')` : sql`coalesce(sum(duration_seconds) FILTER (WHERE user_kind = 'teacher'), 0)`},
      ${value === 'count' ? sql`count(*)` : sql`sum(duration_seconds)`}
    FROM analytics_events WHERE organisation_id = ${orgId} AND ${where} GROUP BY 1, 3, 4`.execute(database.db);
  await rollup('sessions', sql`''`, 'count');
  await rollup('sessions-duration', sql`''`, 'duration');
  await rollup('sessions-by-os', sql`os`, 'count');
  await rollup('sessions-by-provider', sql`provider`, 'count');
  await rollup('email-domains', sql`email_domain`, 'count', sql`email_domain IS NOT NULL`);
  await sql`
    INSERT INTO analytics_users (organisation_id, user_kind, user_id, first_seen_at)
    SELECT organisation_id, user_kind, user_id, min(occurred_at) FROM analytics_events WHERE organisation_id = ${orgId} GROUP BY 1, 2, 3`.execute(database.db);
  await sql`
    INSERT INTO analytics_daily (organisation_id, metric, day, name, students, teachers, total)
    SELECT organisation_id, 'users-first-seen', (first_seen_at AT TIME ZONE 'UTC')::date, '',
      count(*) FILTER (WHERE user_kind = 'student'), count(*) FILTER (WHERE user_kind = 'teacher'), count(*)
    FROM analytics_users WHERE organisation_id = ${orgId} GROUP BY 1, 3`.execute(database.db);
  await sql`ANALYZE`.execute(database.db);
  const [sizes] = (await bare(
    `SELECT (SELECT count(*) FROM analytics_daily WHERE organisation_id = $1)::int AS daily, (SELECT count(*) FROM analytics_users WHERE organisation_id = $1 AND user_kind = 'student')::int AS students`, [orgId])) as { daily: number; students: number }[];
  console.log(`seed: rollups (${sizes?.daily} daily rows) and ${sizes?.students.toLocaleString('en')} students seen, in ${seconds(t0)} s (not part of the figures)`);
  }

  // ---------------------------------------------------------------- the dashboard
  const adminEmail = 'bench-admin@district.example.org';
  await database.db.insertInto('admins').values({ organisation_id: orgId, email: adminEmail }).onConflict((oc) => oc.doNothing()).execute();
  const { headers } = await signIn(app, { email: adminEmail });
  const session = (await (await fetch(`${base}/analytics/sessions/app/organisations/${orgId}`, { headers })).json()) as {
    urls: { studentsCount: string; librariesCount: string; booksCount: string; booksCountPeriodic: string; data: Record<string, Record<string, string>> };
  };
  const to = new Date(today);
  const fromDate = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 18, 1));
  const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
  const from = ymd(fromDate);
  const toText = ymd(to);
  const [fromIso, toIso] = [fromDate.toISOString().slice(0, 10), to.toISOString().slice(0, 10)];
  const range = `&from=${from}&to=${toText}`;
  const rollupSql = `SELECT to_char(date_trunc('week', day::timestamp), 'YYYY-MM-DD') AS date, name, sum(students), sum(teachers), sum(total)
    FROM analytics_daily WHERE organisation_id = $1 AND metric = $2 AND day BETWEEN $3::date AND $4::date GROUP BY 1, name ORDER BY 1, name`;
  const query = (text: string, params: unknown[]) => ({ sql: { text, params }, bare: () => bare(text, params) });
  const scenarios: Array<{ label: string; url: string; bare: () => Promise<unknown>; sql?: { text: string; params: unknown[] } }> = [
    ...['sessions', 'sessions-duration', 'sessions-by-os', 'sessions-by-provider', 'email-domains'].map((metric) => ({
      label: `chart ${metric}, weekly, 18 months`,
      url: `${session.urls.data[metric]?.weekly}${range}`,
      ...query(rollupSql, [orgId, metric, fromIso, toIso]),
    })),
    {
      label: 'chart books created, weekly, 18 months',
      url: `${session.urls.booksCountPeriodic}&period=w${range}`,
      ...query(rollupSql, [orgId, 'books-created', fromIso, toIso]),
    },
    {
      label: 'tile students',
      url: session.urls.studentsCount,
      ...query(`SELECT sum(students) FROM analytics_daily WHERE organisation_id = $1 AND metric = 'users-first-seen'`, [orgId]),
    },
    {
      label: 'tile libraries',
      url: session.urls.librariesCount,
      ...query(`SELECT count(*) FROM libraries WHERE organisation_id = $1 AND archived_at IS NULL`, [orgId]),
    },
    {
      label: 'tile books',
      url: session.urls.booksCount,
      ...query(`SELECT sum(total) FROM analytics_daily WHERE organisation_id = $1 AND metric = 'books-created'`, [orgId]),
    },
    {
      label: 'tile books created, 18 months',
      url: `${session.urls.booksCount}&period=w${range}`,
      ...query(`SELECT sum(total) FROM analytics_daily WHERE organisation_id = $1 AND metric = 'books-created' AND day BETWEEN $2::date AND $3::date`, [orgId, fromIso, toIso]),
    },
    {
      // For reference: what the books tile would cost without its rollup (counting the books table).
      label: 'reference: count(*) of the books table (no HTTP route; bare only)',
      url: '',
      ...query(`SELECT count(*) FROM books WHERE organisation_id = $1`, [orgId]),
    },
    {
      label: 'tile session duration, 18 months',
      url: `${session.urls.data['sessions-duration']?.total}${range}`,
      ...query(`SELECT name, sum(students), sum(teachers), sum(total) FROM analytics_daily WHERE organisation_id = $1 AND metric = 'sessions-duration' AND day BETWEEN $2::date AND $3::date GROUP BY name`, [orgId, fromIso, toIso]),
    },
  ];
  const fmt = (r: Summary) => `p50 ${ms(r.p50)}, p99 ${ms(r.p99)}`;
  console.log(
    `| request (Weekly view, 18 months) | HTTP, ${CONCURRENCY} in flight | bare query, ${CONCURRENCY} in flight | HTTP one at a time | bare one at a time | p99 ratio | HTTP with the answer cache (${CACHE_SECONDS} s), ${CONCURRENCY} in flight | p99 ratio with the cache |`,
  );
  const httpTasks = (u: string, n: number, on = base): ClientTask[] => Array.from({ length: n }, () => ({ url: `${on}${u}` }));
  /** The bare query: from the worker on PostgreSQL (its own pool of 10); in this thread on PGlite. */
  const bareRun = (s: (typeof scenarios)[number], n: number, concurrency: number) =>
    s.sql && !PGLITE
      ? inClient(concurrency, Array.from({ length: n }, () => ({ statements: [{ text: s.sql!.text, params: s.sql!.params }] })))
      : load(n, concurrency, async () => {
          await s.bare();
        });
  // Not timed: the intake's writes flushed (CHECKPOINT), then one round of the first question on the server without the
  // cache and as a bare query, so the first timed round does not pay for the previous phase's writes or a cold start.
  // The cached server is warmed the same way, then one event for the district is sent to it, which drops the
  // district's kept answers (as any event it takes in does): its first request of each question still makes the answer.
  await bare('CHECKPOINT', []);
  const first = scenarios[0]!;
  await inClient(CONCURRENCY, httpTasks(first.url, 200));
  await bareRun(first, 200, CONCURRENCY);
  await inClient(CONCURRENCY, httpTasks(first.url, 200, cachedBase));
  const [warmEvent] = makeBatch(1).map((e) => ({ ...e, organisationId: orgId }));
  const dropped = await fetch(`${cachedBase}/analytics/events`, { method: 'POST', headers: intakeHeaders, body: JSON.stringify({ events: [warmEvent] }) });
  if (dropped.status !== 200) throw new Error(`intake on the cached server: HTTP ${dropped.status} ${await dropped.text()}`);
  for (const s of scenarios) {
    if (!s.url) {
      console.log(`| ${s.label} | | ${fmt(await bareRun(s, REQUESTS, CONCURRENCY))} | | ${fmt(await bareRun(s, 50, 1))} |`);
      continue;
    }
    const check = await fetch(`${base}${s.url}`);
    if (check.status !== 200) throw new Error(`${s.label}: HTTP ${check.status} ${await check.text()}`);
    await check.arrayBuffer();
    // In ROUNDS alternating rounds (HTTP, bare, the cached server), so a change in the machine's load or a pause (a
    // collection, autovacuum) weighs on the three columns alike; the percentiles are over every round's latencies.
    // The cached server's first request makes the answer (as a cold dashboard would), the rest are kept answers.
    const perRound = Math.ceil(REQUESTS / ROUNDS);
    const rounds = { http: [] as number[], bare: [] as number[], cached: [] as number[] };
    const spent = { http: 0, bare: 0, cached: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [column, run] of [
        ['http', () => inClient(CONCURRENCY, httpTasks(s.url, perRound))],
        ['bare', () => bareRun(s, perRound, CONCURRENCY)],
        ['cached', () => inClient(CONCURRENCY, httpTasks(s.url, perRound, cachedBase))],
      ] as const) {
        const result = await run();
        rounds[column].push(...result.latencies);
        spent[column] += result.seconds;
      }
    }
    const http = summary(rounds.http, spent.http);
    const bareMany = summary(rounds.bare, spent.bare);
    const cached = summary(rounds.cached, spent.cached);
    const single = await inClient(1, httpTasks(s.url, 50));
    const bareSingle = await bareRun(s, 50, 1);
    console.log(
      `| ${s.label} | ${fmt(http)} | ${fmt(bareMany)} | ${fmt(single)} | ${fmt(bareSingle)} | ${(http.p99 / bareMany.p99).toFixed(2)}× | ${fmt(cached)} | ${(cached.p99 / bareMany.p99).toFixed(2)}× |`,
    );
  }
  console.log(`load average at the end: ${load1()}`);
} finally {
  client.close();
  await app.close();
  await cachedApp?.close();
  await cachedProcess?.close();
  await pool?.end();
  await database.close();
  if (!values.keep && !PGLITE) await drop();
}
