/**
 * Districts benchmark: one district of 50 schools and 100,000 teachers (2,000 a school) behind the real server.
 *  - the district's Teachers (view=district, e-mail order, 10 rows): the first page and the middle page by number,
 *    under 50 concurrent requests, against the same page and count sent straight to the database (the first page read
 *    school by school with a LATERAL subquery per school, the middle page by OFFSET, the count from member_counts);
 *  - the district's licence dashboard (getOrganisationById with its licences and each school's allocation) and the
 *    district's Analytics breakdown (every school's figures over 18 months), one request at a time;
 *  - the effective settings of one school under a district that locks and defaults some of them (GET …/settings),
 *    one request at a time.
 * Prints the figures recorded in docs/performance.md ("Districts").
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres npx tsx bench/districts.bench.ts [--teachers N] [--schools N] [--requests N] [--concurrency N] [--keep]
 *   … --only settings          (only the named scenarios, comma-separated: teachers, dashboard, analytics, settings)
 *   npx tsx bench/districts.bench.ts --db pglite          (embedded PGlite in memory: one connection, for comparison)
 *
 * BENCH_DATABASE_URL is an admin URL: the benchmark creates its own database (quire_bench_districts) and drops it
 * afterwards unless --keep. Requests and bare statements are sent from a worker thread (load-client.mjs), in
 * alternating rounds, after 100 untimed requests of each, as in teachers.bench.ts.
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { signIn } from '../apps/server/test/auth.js';
import { testEnv } from '../apps/server/test/helper.js';
import { benchDatabase, formatSummary as fmt, loadNow, machineLine, percentile, startLoadClient, type ClientTask } from './load.js';

const { values } = parseArgs({
  options: {
    teachers: { type: 'string', default: '100000' },
    schools: { type: 'string', default: '50' },
    requests: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
    db: { type: 'string', default: 'postgres' },
    only: { type: 'string', default: 'teachers,dashboard,analytics,settings' },
  },
});
const TEACHERS = Number(values.teachers);
const SCHOOLS = Number(values.schools);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const PORT = 3732;
const DB_NAME = 'quire_bench_districts';
const PGLITE = values.db === 'pglite';
const ONLY = new Set(values.only.split(','));
const { dbUrl, recreate, drop } = benchDatabase(DB_NAME, 'postgres://postgres@127.0.0.1:5433/postgres');

const client = startLoadClient(PGLITE ? undefined : { databaseUrl: dbUrl, poolSize: 10 });

if (!PGLITE) {
  await recreate();
}
const env = testEnv({ DATABASE_URL: PGLITE ? undefined : dbUrl, PUBLIC_URL: `http://127.0.0.1:${PORT}`, PORT, ANALYTICS_CACHE_SECONDS: 0 });
const database = await openDatabase({ ...env, inMemory: PGLITE });
await migrateToLatest(database.db);
const app = await buildApp({ env, database, logger: false });

try {
  console.log(machineLine(PGLITE ? 'PGlite (one connection)' : `PostgreSQL, pool ${env.DATABASE_POOL_SIZE}`));
  const districtId = 'bench-district';
  const db = database.db;
  const t0 = performance.now();
  await db.insertInto('organisations').values({ id: districtId, name: 'Benchmark District' }).execute();
  await sql`INSERT INTO organisations (id, name, parent_id) SELECT 'bench-school-' || lpad(s::text, 3, '0'), 'School ' || lpad(s::text, 3, '0'), ${districtId}
    FROM generate_series(1, ${SCHOOLS}) s`.execute(db);
  // A district licence allocated to every school: 20 seats each (the dashboard's allocations table).
  await db.insertInto('licenses').values({ id: 'bench-district-lic', organisation_id: districtId, name: 'District Standard', quantity: SCHOOLS * 40, book_quota: 40, library_quota: 5 }).execute();
  await sql`INSERT INTO licenses (id, organisation_id, name, quantity, book_quota, library_quota, allocated_from_organisation_id, allocated_from_license_id)
    SELECT 'bench-share-' || s, 'bench-school-' || lpad(s::text, 3, '0'), 'District Standard', 20, 40, 5, ${districtId}, 'bench-district-lic'
    FROM generate_series(1, ${SCHOOLS}) s`.execute(db);
  const perSchool = Math.ceil(TEACHERS / SCHOOLS);
  await sql`
    INSERT INTO members (id, organisation_id, email, display_name, role, pending, license_id, revoked_at)
    SELECT 'm' || g, 'bench-school-' || lpad((1 + (g - 1) / ${perSchool})::text, 3, '0'),
      'teacher' || lpad(g::text, 6, '0') || '@district.example.org',
      (ARRAY['Ann','Ben','Cara','Dev','Eli','Fay','Gus','Hana'])[1 + g % 8] || ' ' || (ARRAY['Smith','Jones','Lee','Patel','Garcia','Kim','Nguyen'])[1 + g % 7] || ' ' || g,
      CASE WHEN g % 10 = 0 THEN -600 ELSE 600 END, g % 10 = 0,
      CASE WHEN g % ${perSchool} < 10 THEN 'bench-share-' || (1 + (g - 1) / ${perSchool}) END,
      CASE WHEN g % 50 = 0 THEN now() END
    FROM generate_series(1, ${TEACHERS}) g`.execute(db);
  // 18 months of daily rollups for every school (sessions, their duration, books created): what a district's
  // Analytics reads.
  await sql`
    INSERT INTO analytics_daily (organisation_id, metric, day, name, students, teachers, total)
    SELECT o.id, m.metric, d::date, '', 10, 5, CASE m.metric WHEN 'sessions-duration' THEN 9000 ELSE 15 END
    FROM organisations o CROSS JOIN (VALUES ('sessions'), ('sessions-duration'), ('books-created')) AS m(metric)
    CROSS JOIN generate_series(current_date - 548, current_date, interval '1 day') d
    WHERE o.parent_id = ${districtId}`.execute(db);
  // Settings that flow down: the district locks one app and defaults another; each school has its own values.
  await sql`UPDATE organisations SET setting_policies = ${JSON.stringify({ apps: { giphy: { mode: 'locked', value: 0 }, canva: { mode: 'default', value: 2 } } })}::jsonb WHERE id = ${districtId}`.execute(db);
  await sql`UPDATE organisations SET settings = ${JSON.stringify({ apps: { giphy: 2, bitmoji: 1 }, imageSearch: 'pixabay' })}::jsonb WHERE parent_id = ${districtId}`.execute(db);
  await sql`VACUUM (ANALYZE)`.execute(db);
  console.log(`seed: ${SCHOOLS} schools, ${TEACHERS} teachers, ${SCHOOLS * 549 * 3} rollup rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (not part of the figures)`);

  const adminEmail = 'bench-admin@district.example.org';
  await db.insertInto('admins').values({ organisation_id: districtId, email: adminEmail }).execute();
  const { headers } = await signIn(app, { email: adminEmail });
  await app.listen({ port: PORT, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${PORT}`;
  const teachersUrl = `${base}/payments/v1/admin/organisations/${districtId}/members/teachers?view=district&sort=email&dir=asc&pageSize=10`;

  // The district's Teachers: the first page and the middle page by number, HTTP against bare SQL.
  const firstAnswer = await fetch(`${teachersUrl}&page=1`, { headers });
  if (!firstAnswer.ok) throw new Error(`district Teachers: ${firstAnswer.status} ${await firstAnswer.text()}`);
  const total = Number(((await firstAnswer.json()) as { total: number }).total);
  const middle = Math.floor(Math.ceil(total / 10) / 2);
  const inDistrict = `m.organisation_id IN (SELECT organisation_id FROM organisation_ancestors WHERE ancestor_id = $1)`;
  for (const [label, page] of ONLY.has('teachers') ? ([['first page', 1], [`middle page (row ${(middle - 1) * 10})`, middle]] as const) : []) {
    const httpTasks: ClientTask[] = Array.from({ length: REQUESTS }, () => ({ url: `${teachersUrl}&page=${page}`, headers }));
    // The first page as the server reads it: each school's first rows by its own e-mail index (a LATERAL subquery per
    // school), merged. A page by number further on: the plain ORDER BY … OFFSET (the server starts from its anchors).
    const active = `NOT m.is_student AND NOT m.is_provider_staff AND m.revoked_at IS NULL`;
    const rows =
      page === 1
        ? `(SELECT m.* FROM organisation_ancestors a CROSS JOIN LATERAL (SELECT * FROM members m WHERE m.organisation_id = a.organisation_id AND ${active}
            ORDER BY m.email LIMIT 11) m WHERE a.ancestor_id = $1 ORDER BY m.email, m.id LIMIT 11) m`
        : `(SELECT * FROM members m WHERE ${inDistrict} AND ${active}) m`;
    const bareTasks: ClientTask[] = Array.from({ length: REQUESTS }, () => ({
      statements: [
        {
          text: `SELECT m.*, l.name, l.book_quota, l.library_quota, l.apply_to_all, o.name AS school FROM ${rows} LEFT JOIN licenses l ON l.id = m.license_id
            JOIN organisations o ON o.id = m.organisation_id
            ORDER BY m.email, m.id LIMIT 10 OFFSET ${(page - 1) * 10}`,
          params: [districtId],
        },
        { text: `SELECT coalesce(sum(teachers), 0) FROM member_counts m WHERE ${inDistrict} AND NOT m.revoked`, params: [districtId] },
      ],
    }));
    // Untimed: the server's first requests, the list's anchors read, the pool's connections. One request alone first:
    // a page by number before the list's anchors are read is an OFFSET over the whole district, and 50 of those at once
    // wait past the pool's timeout (answered 503); the anchors are read once it is answered.
    await client.run(1, httpTasks.slice(0, 1));
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await client.run(CONCURRENCY, httpTasks.slice(0, 100));
    if (PGLITE) {
      const http = await client.run(CONCURRENCY, httpTasks);
      console.log(`district Teachers, ${label}, ${total} teachers (${REQUESTS} requests, ${CONCURRENCY} concurrent): HTTP ${fmt(http)} (${loadNow()})`);
    } else {
      await client.run(CONCURRENCY, bareTasks.slice(0, 100));
      const [http, bare] = await client.interleaved(CONCURRENCY, httpTasks, bareTasks);
      console.log(`district Teachers, ${label}, ${total} teachers (${REQUESTS} requests, ${CONCURRENCY} concurrent): HTTP ${fmt(http)} | bare SQL ${fmt(bare)} | p99 ratio ${(http.p99 / bare.p99).toFixed(2)} (${loadNow()})`);
    }
  }

  // One request at a time: the district's licence dashboard, its Analytics breakdown, a school's effective settings.
  const one = async (label: string, task: () => Promise<Response>, n = 200) => {
    for (let i = 0; i < 20; i++) await (await task()).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const res = await task();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${label}: ${res.status}`);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`${label}, one at a time, ${n} requests: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (${loadNow()})`);
  };
  const dashboard = JSON.stringify({
    query: `query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { id name isDomain licenses {
      id name allocated quantity bookQuota libraryQuota applyToAll allocatedBy { organisationId organisationName licenseId }
      allocations { organisationId organisationName seats assigned } } } }`,
    variables: { id: districtId },
  });
  if (ONLY.has('dashboard')) {
    await one('district licence dashboard (getOrganisationById, 50 allocations)', () =>
      fetch(`${base}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: dashboard }),
    );
  }
  if (ONLY.has('analytics')) {
    const session = (await (await fetch(`${base}/analytics/sessions/app/organisations/${districtId}`, { headers })).json()) as { urls: { breakdown: string; studentsCount: string } };
    await one('district Analytics breakdown (every school, 18 months; no answer cache)', () => fetch(`${base}${session.urls.breakdown}`));
    await one('district Analytics Students tile (no answer cache)', () => fetch(`${base}${session.urls.studentsCount}`));
  }
  if (ONLY.has('settings')) {
    for (let run = 0; run < 3; run++) {
      await one('effective settings of one school (GET …/settings?include=sources)', () =>
        fetch(`${base}/api/organisations/bench-school-001/settings?include=sources`, { headers }),
      1000);
    }
  }
} finally {
  client.close();
  await app.close();
  await database.close();
  if (!PGLITE && !values.keep) await drop();
}
