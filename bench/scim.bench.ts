/**
 * SCIM benchmark on PostgreSQL (docs/performance.md, "SCIM provisioning"):
 *  - 10,000 users created through POST /scim/v2/Users with 20 in flight, as an identity provider's first cycle sends
 *    them, plus 500 creates of a userName already sent, raced against its first create: every create 201, every repeat
 *    409 uniqueness, nothing else; afterwards the organisation has exactly 10,000 provisioned users and members, each
 *    address once. Meanwhile PostgreSQL's sessions are sampled for lock waits on the per-token rate-limit counter row.
 *  - the organisation grown to 100,000 provisioned teachers; GET /Users with a filter (userName eq, externalId eq,
 *    emails[type eq "work"].value eq), 1,000 requests each, one at a time and 20 in flight: p99 ≤ 50 ms.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5545/postgres npx tsx bench/scim.bench.ts [--users N] [--teachers N] [--keep]
 *
 * The server runs in a process of its own (server-process.ts), so the requests this process sends take no CPU from
 * its event loop. The rate limit is raised for the run (SCIM_REQUESTS_PER_MINUTE): the default 1,200 a minute would
 * answer most of a 10,000-user burst with 429 and Retry-After, which the providers honour; the counter is still
 * counted on every request. BENCH_DATABASE_URL is an admin URL: the benchmark creates its own database (quire_bench_scim)
 * and drops it afterwards unless --keep.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { tokenHash } from '../apps/server/src/modules/scim/scim-tokens.service.js';
import { testEnv } from '../apps/server/test/helper.js';
import { benchDatabase, formatSummary as fmt, load, loadNow, machineLine } from './load.js';
import { startServerProcess } from './server-process.js';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    teachers: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
});
const USERS = Number(values.users);
const TEACHERS = Number(values.teachers);
const CONCURRENCY = Number(values.concurrency);
const REPEATS = Math.min(500, Math.floor(USERS / 20));
const PORT = 3597;
const DB_NAME = 'quire_bench_scim';
const { dbUrl, recreate, drop } = benchDatabase(DB_NAME, 'postgres://postgres@127.0.0.1:5545/postgres');

const agent = new Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });

await recreate();
const overrides = { DATABASE_URL: dbUrl, PUBLIC_URL: `http://127.0.0.1:${PORT}`, PORT, SCIM_REQUESTS_PER_MINUTE: 1_000_000 };
const env = testEnv(overrides);
const database = await openDatabase({ ...env, inMemory: false });
await migrateToLatest(database.db);
const db = database.db;
let server: Awaited<ReturnType<typeof startServerProcess>> | null = null;

try {
  console.log(machineLine(`PostgreSQL, pool ${env.DATABASE_POOL_SIZE}`));
  const orgId = 'bench-scim-org';
  await db.insertInto('organisations').values({ id: orgId, name: 'Benchmark District' }).execute();
  const token = `quire_scim_bench${randomUUID().replaceAll('-', '')}`;
  await db.insertInto('scim_tokens').values({ id: 'bench-token', organisation_id: orgId, token_hash: tokenHash(token), hint: token.slice(-4), created_by_email: null }).execute();
  server = await startServerProcess(overrides);
  const base = `http://127.0.0.1:${PORT}/scim/v2`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' };

  const send = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), dispatcher: agent });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  };
  const userBody = (i: number) => {
    const email = `staff${String(i).padStart(6, '0')}@district.example.org`;
    return {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: `ext-${i}`,
      userName: email,
      active: true,
      emails: [{ primary: true, type: 'work', value: email }],
      meta: { resourceType: 'User' },
      name: { formatted: `Staff ${i}`, familyName: `${i}`, givenName: 'Staff' },
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: String(i), department: 'Teaching' },
    };
  };

  // 1. The first cycle: USERS creates, and REPEATS repeats each sent right after its first (so the two race).
  const plan: number[] = [];
  const repeatEvery = Math.floor(USERS / Math.max(1, REPEATS));
  for (let i = 0; i < USERS; i++) {
    plan.push(i);
    if (REPEATS && i % repeatEvery === 0 && plan.length < USERS + REPEATS) plan.push(i);
  }
  const statuses = new Map<number, number>();
  const otherErrors: string[] = [];
  // Sessions waiting on a lock, sampled every 20 ms while the creates run, with what they wait to run.
  let sampling = true;
  let samples = 0;
  const waits = { rateLimit: 0, other: 0 };
  const waitingOn = new Map<string, number>();
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await sql<{ query: string }>`
        SELECT query FROM pg_stat_activity WHERE datname = ${DB_NAME} AND wait_event_type = 'Lock'`.execute(db);
      samples += 1;
      for (const row of rows) {
        if (/rate_limits/.test(row.query)) waits.rateLimit += 1;
        else waits.other += 1;
        const statement = row.query.replace(/\s+/g, ' ').slice(0, 90);
        waitingOn.set(statement, (waitingOn.get(statement) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  console.log(`creating ${USERS} users (+${plan.length - USERS} raced repeats), ${CONCURRENCY} in flight, ${loadNow()}`);
  const created = await load(plan.length, CONCURRENCY, async (n) => {
    const { status, text } = await send('POST', '/Users', userBody(plan[n]!));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status !== 201 && status !== 409) otherErrors.push(`${status} ${text.slice(0, 200)}`);
  });
  sampling = false;
  await sampler;
  console.log(`creates: ${fmt(created)}, ${created.seconds.toFixed(1)} s, answers ${JSON.stringify(Object.fromEntries(statuses))}, ${loadNow()}`);
  console.log(`lock waits sampled: ${samples} samples, ${waits.rateLimit} sessions waiting on the rate-limit counter, ${waits.other} on anything else`);
  for (const [statement, n] of [...waitingOn].sort((a, b) => b[1] - a[1]).slice(0, 4)) console.log(`  ${n} × ${statement}`);
  const counts = await sql<{ users: string; members: string; addresses: string }>`
    SELECT (SELECT count(*) FROM scim_users WHERE organisation_id = ${orgId}) AS users,
      (SELECT count(*) FROM members WHERE organisation_id = ${orgId}) AS members,
      (SELECT count(DISTINCT email) FROM members WHERE organisation_id = ${orgId}) AS addresses`.execute(db);
  const count = counts.rows[0]!;
  console.log(`afterwards: ${count.users} provisioned users, ${count.members} members, ${count.addresses} distinct addresses`);
  const ok = statuses.get(201) === USERS && (statuses.get(409) ?? 0) === plan.length - USERS && otherErrors.length === 0
    && Number(count.users) === USERS && Number(count.members) === USERS && Number(count.addresses) === USERS;
  if (otherErrors.length) console.log(`errors: ${otherErrors.slice(0, 5).join(' | ')}`);
  console.log(`10,000 creates, no error, no duplicate: ${ok ? 'yes' : 'NO'}`);

  // 2. The organisation grown to TEACHERS provisioned teachers, then filtered lists.
  const more = TEACHERS - USERS;
  if (more > 0) {
    const t0 = performance.now();
    await sql`
      INSERT INTO members (id, organisation_id, email, display_name, role, pending)
      SELECT 'seed-' || g, ${orgId}, 'staff' || lpad(g::text, 6, '0') || '@district.example.org', 'Staff ' || g, -600, true
      FROM generate_series(${USERS}::int, ${TEACHERS - 1}::int) g`.execute(db);
    await sql`
      INSERT INTO scim_users (organisation_id, member_id, user_name, external_id, attributes)
      SELECT ${orgId}, 'seed-' || g, 'staff' || lpad(g::text, 6, '0') || '@district.example.org', 'ext-' || g, '{"givenName":"Staff"}'::jsonb
      FROM generate_series(${USERS}::int, ${TEACHERS - 1}::int) g`.execute(db);
    await sql`VACUUM (ANALYZE)`.execute(db);
    console.log(`seed: ${more} more provisioned teachers in ${((performance.now() - t0) / 1000).toFixed(1)} s (not part of the figures)`);
  }
  const pick = (i: number) => (i * 7919) % TEACHERS;
  const email = (i: number) => `staff${String(pick(i)).padStart(6, '0')}@district.example.org`;
  const filters: Record<string, (i: number) => string> = {
    'userName eq': (i) => `userName eq "${email(i).toUpperCase()}"`,
    'externalId eq': (i) => `externalId eq "ext-${pick(i)}"`,
    'emails[type eq "work"].value eq': (i) => `emails[type eq "work"].value eq "${email(i)}"`,
    'userName eq … and active eq true': (i) => `userName eq "${email(i)}" and active eq true`,
  };
  for (const [name, filter] of Object.entries(filters)) {
    const ask = async (i: number) => {
      const { status, text } = await send('GET', `/Users?filter=${encodeURIComponent(filter(i))}`);
      if (status !== 200 || !text.includes('"totalResults":1')) throw new Error(`${name}: ${status} ${text.slice(0, 200)}`);
    };
    await load(300, CONCURRENCY, (i) => ask(i + 5000)); // warm-up, untimed
    const one = await load(1000, 1, ask);
    const many = await load(1000, CONCURRENCY, (i) => ask(i + 1000));
    console.log(`filter ${name} at ${TEACHERS}: one at a time ${fmt(one)}; ${CONCURRENCY} in flight ${fmt(many)}; ${loadNow()}`);
  }
  const page = await load(200, 1, async (i) => {
    const { status } = await send('GET', `/Users?startIndex=${1 + ((i * 7919) % (TEACHERS - 100))}&count=100`);
    if (status !== 200) throw new Error(`page: ${status}`);
  });
  console.log(`unfiltered page of 100 at ${TEACHERS} (with totalResults): one at a time ${fmt(page)}; ${loadNow()}`);
} finally {
  await server?.close();
  await agent.close();
  await database.close();
  if (!values.keep) await drop();
}
