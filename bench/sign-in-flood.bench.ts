/**
 * Sign-in flood benchmark: the teachers page p99 while 200 wrong sign-ins arrive with 32 in
 * flight, against its p99 when idle. The real server listens on a port (embedded PGlite in memory), trusts
 * X-Forwarded-For from loopback so each attempt comes from its own address and e-mail (no rate limit
 * short-cuts the hashing: every attempt reaches the hashing pool or its queue limit).
 * Prints the figures recorded in docs/performance.md ("Sign-in flood").
 *
 *   npx tsx bench/sign-in-flood.bench.ts [--teachers N] [--attempts N] [--inflight N] [--page-requests N]
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { buildApp } from '../apps/server/src/app.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { signIn } from '../apps/server/test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../apps/server/test/factories.js';
import { testEnv } from '../apps/server/test/helper.js';

const { values } = parseArgs({
  options: {
    teachers: { type: 'string', default: '500' },
    attempts: { type: 'string', default: '200' },
    inflight: { type: 'string', default: '32' },
    'page-requests': { type: 'string', default: '100' },
  },
});
const TEACHERS = Number(values.teachers);
const ATTEMPTS = Number(values.attempts);
const INFLIGHT = Number(values.inflight);
const PAGE_REQUESTS = Number(values['page-requests']);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The teachers page requested one after the other, `total` times; latencies in ms. */
async function teachersPage(url: string, headers: Record<string, string>, total: number, until?: () => boolean) {
  const latencies: number[] = [];
  for (let i = 0; i < total || (until && !until()); i++) {
    const t0 = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`teachers page answered ${response.status}`);
    latencies.push(performance.now() - t0);
    if (until?.()) break;
  }
  latencies.sort((a, b) => a - b);
  return { n: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

// Production requires an LTI encryption key (env.ts); any 32 bytes will do for a benchmark.
// Production's password cost (the test suites' lower one would measure a different server).
const env = testEnv({ NODE_ENV: 'production', PASSWORD_SCRYPT_LOG2_N: 17, LOG_LEVEL: 'silent', TRUST_PROXY: 'loopback', PUBLIC_URL: 'http://127.0.0.1', LTI_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
const database = await openDatabase({ ...env, DATABASE_URL: undefined, inMemory: true });
await migrateToLatest(database.db);
const app = await buildApp({ env, database, logger: false });
await app.ready();
const org = await buildOrganisation(app.db);
const admin = await buildAdmin(app.db, { organisationId: org.id });
for (let i = 0; i < TEACHERS; i++) await buildTeacher(app.db, { organisationId: org.id });
const { headers } = await signIn(app, { email: admin.email });
// Any free port: the console's Origin is then its own host (same-origin), as in a real browser.
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const BASE = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const pageUrl = `${BASE}/payments/v1/admin/organisations/${org.id}/members/teachers?page=1&pageSize=10`;
const requestHeaders = { cookie: headers.cookie, 'x-acting-user': headers['x-acting-user'] };
await teachersPage(pageUrl, requestHeaders, 20); // warm-up
const idle = await teachersPage(pageUrl, requestHeaders, PAGE_REQUESTS);
const rssBefore = process.memoryUsage().rss;

const statuses = new Map<number | string, number>();
let sent = 0;
let done = false;
let peakRss = rssBefore;
const flood = Promise.all(
  Array.from({ length: INFLIGHT }, async () => {
    while (sent < ATTEMPTS) {
      const i = sent++;
      let status: number | string;
      try {
        const response = await fetch(`${BASE}/auth/email`, {
          method: 'POST',
          headers: {
            origin: BASE,
            connection: 'close',
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          },
          body: new URLSearchParams({ email: `flood-${i}@attacker.example`, password: `guess-${i}` }).toString(),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 'network error';
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }
  }),
).then(() => {
  done = true;
});
const started = performance.now();
const during = await teachersPage(pageUrl, requestHeaders, 10, () => done);
await flood;
const floodSeconds = (performance.now() - started) / 1000;

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
console.log(`teachers: ${TEACHERS}, flood: ${ATTEMPTS} wrong sign-ins, ${INFLIGHT} in flight, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`teachers page idle:         n ${idle.n}, p50 ${idle.p50.toFixed(1)} ms, p99 ${idle.p99.toFixed(1)} ms`);
console.log(`teachers page during flood: n ${during.n}, p50 ${during.p50.toFixed(1)} ms, p99 ${during.p99.toFixed(1)} ms (${(during.p99 / idle.p99).toFixed(2)}x idle)`);
console.log(`flood answers in ${floodSeconds.toFixed(1)} s: ${[...statuses].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([s, n]) => `${s}: ${n}`).join(', ')}`);
console.log(`server memory: ${mb(rssBefore)} before, peak ${mb(peakRss)} during`);
await app.close();
await database.close();
