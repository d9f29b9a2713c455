/**
 * Rolling restart through HAProxy (docs/performance.md, "Rolling restart"; docs/scale-out.md). Three copies of the
 * server behind HAProxy on one fresh PostgreSQL database (e2e/support/proxy-cluster.ts); autocannon sends a steady
 * mix of console requests through the proxy, signed in as the demo admin: the Teachers list, the settings, the
 * session, and a write (one new teacher imported, a different address each time). Meanwhile each copy in turn gets
 * SIGTERM: its /readyz turns 503 (HAProxy takes it out), it finishes its requests, exits, starts again and is back in
 * rotation before the next one goes. Reports every answer that was not 2xx and every error (both must be 0), and the
 * writes answered 2xx that the database does not have afterwards (lost writes, must be 0).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/rolling-restart.bench.ts
 *   … --minutes 20     soak instead: the same mix for 20 minutes, no restarts, memory per copy and p99 per minute
 *   --connections N    concurrent connections (default 8); --rounds N restarts of every copy (default 1)
 *   --drain N          the copies' SHUTDOWN_DRAIN_SECONDS (default 5; 0 shows what a stop without the drain costs)
 *
 * Needs HAProxy (apt-get install haproxy). Ports from E2E_PORT_RANGE (default 3300-3399).
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { demoAdmin } from '../e2e/support/env.js';
import { COPY_HEADER, haproxyInstalled, startProxyCluster, type ProxyCluster } from '../e2e/support/proxy-cluster.js';
import { createTestDatabase } from '../e2e/support/test-database.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    connections: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
    drain: { type: 'string', default: '5' },
  },
});
const soakMinutes = args.minutes ? Number(args.minutes) : 0;
const connections = Number(args.connections);
const rounds = Number(args.rounds);
const drainSeconds = Number(args.drain);

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('Set TEST_DATABASE_URL to a PostgreSQL admin URL (the copies share a fresh database made there)');
if (!haproxyInstalled()) throw new Error('HAProxy is missing: apt-get install haproxy');

const database = await createTestDatabase(adminUrl);
let cluster: ProxyCluster | undefined;
try {
  cluster = await startProxyCluster({ databaseUrl: database.url, drainSeconds, env: { LOG_LEVEL: 'warn' } });
  await run(cluster);
} finally {
  await cluster?.stop();
  await database.drop();
}

async function run(cluster: ProxyCluster): Promise<void> {
  const base = cluster.url;
  const { cookie, userId } = await signIn(base);
  const orgId = await firstOrganisation(base, { cookie, 'x-acting-user': userId });
  const stamp = Date.now().toString(36);
  const emailOf = (n: number) => `bench-rr-${stamp}-${n}@example.org`;

  const statuses = new Map<number, number>();
  /** Status counts per kind of request ("GET teachers 200"), to say which ones failed. */
  const byKind = new Map<string, number>();
  const count = (kind: string) => (status: number) => byKind.set(`${kind} ${status}`, (byKind.get(`${kind} ${status}`) ?? 0) + 1);
  const byCopy = new Map<string, number>();
  let writesSent = 0;
  let writesAcknowledged = 0;
  const latencies: number[][] = [[]];
  const minuteStarted = () => latencies.length - 1;

  const headers = { cookie, 'x-acting-user': userId, origin: base };
  let finished: (result: autocannon.Result) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve) => (finished = resolve));
  const instance = autocannon({
    url: base,
    connections,
    // Ended by the script (stop()) once the restarts or the soak are over.
    duration: 24 * 3600,
    timeout: 30,
    headers,
    requests: [
      { method: 'GET', path: `/payments/v1/admin/organisations/${orgId}/members/teachers?page=1&pageSize=10`, onResponse: count('GET teachers') },
      { method: 'GET', path: `/api/organisations/${orgId}/settings`, onResponse: count('GET settings') },
      {
        method: 'POST',
        path: `/payments/v1/admin/organisations/${orgId}/members/import/teachers`,
        headers: { ...headers, 'content-type': 'application/json' },
        setupRequest: (request) => {
          writesSent += 1;
          return { ...request, body: JSON.stringify([emailOf(writesSent)]) };
        },
        onResponse: (status) => {
          count('POST import')(status);
          if (status >= 200 && status < 300) writesAcknowledged += 1;
        },
      },
      { method: 'GET', path: '/identity/get-session', onResponse: count('GET session') },
    ],
  }, (error, result) => {
    if (error) throw error;
    finished(result);
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1);
    latencies[minuteStarted()]?.push(responseTime);
  });
  instance.on('reqError', () => statuses.set(0, (statuses.get(0) ?? 0) + 1));
  // Which copy answered: read from the proxy with a side request every second (autocannon does not expose headers).
  const spread = setInterval(() => {
    void fetch(`${base}/healthz`)
      .then((r) => {
        const copy = r.headers.get(COPY_HEADER) ?? '?';
        byCopy.set(copy, (byCopy.get(copy) ?? 0) + 1);
      })
      .catch(() => undefined);
  }, 1000);

  const memory: Array<Record<string, number>> = [];
  const sampleMemory = () => {
    const row: Record<string, number> = {};
    for (const copy of cluster.copies) row[copy.name] = copy.server ? rssMb(copy.server.pid) : NaN;
    memory.push(row);
  };
  const minuteTimer = setInterval(() => {
    sampleMemory();
    latencies.push([]);
  }, 60_000);

  const started = Date.now();
  const restarts: Array<{ copy: string; seconds: number }> = [];
  await sleep(10_000);
  if (soakMinutes > 0) {
    await sleep(soakMinutes * 60_000 - 10_000);
  } else {
    for (let round = 0; round < rounds; round += 1) {
      for (const copy of cluster.copies) {
        const begun = Date.now();
        await cluster.restart(copy);
        restarts.push({ copy: copy.name, seconds: (Date.now() - begun) / 1000 });
        // Let the mix run on all three before the next copy goes.
        await sleep(5_000);
      }
    }
  }
  instance.stop();
  const result = await done;
  clearInterval(spread);
  clearInterval(minuteTimer);
  sampleMemory();

  // The writes the server acknowledged, counted in the database.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  let stored = 0;
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) from members where organisation_id = $1 and email like $2', [orgId, `bench-rr-${stamp}-%`]);
    stored = Number(rows[0]?.count);
  } finally {
    await client.end();
  }

  const failed = [...statuses].filter(([status]) => status < 200 || status >= 300).reduce((sum, [, n]) => sum + n, 0) + result.errors + result.timeouts;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const lines = [
    `${soakMinutes ? `Soak, ${soakMinutes} min` : `Rolling restart, ${rounds} round(s) of ${cluster.copies.length} copies, drain ${drainSeconds} s`}: ${((Date.now() - started) / 1000).toFixed(0)} s, ${connections} connections, Node.js ${process.version}, load average ${load}`,
    `requests: ${result.requests.total} (${result.requests.average.toFixed(0)}/s), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    `answers by status: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s || 'error'}: ${n}`).join(', ')}`,
    `by request: ${[...byKind].sort().map(([k, n]) => `${k}: ${n}`).join(', ')}`,
    `failed requests (not 2xx, errors, timeouts): ${failed}`,
    `writes: ${writesAcknowledged} acknowledged, ${stored} in the database, lost: ${Math.max(0, writesAcknowledged - stored)}`,
    `side requests by copy: ${[...byCopy].sort().map(([c, n]) => `${c} ${n}`).join(', ')}`,
    ...restarts.map((r) => `restart of ${r.copy} (SIGTERM → drained → back in rotation): ${r.seconds.toFixed(1)} s`),
    ...latencies.filter((l) => l.length > 0).map((l, minute) => `minute ${minute + 1}: ${l.length} requests, p99 ${percentile(l, 0.99)} ms`),
    ...memory.map((row, minute) => `memory after minute ${minute + 1} (RSS MB): ${Object.entries(row).map(([c, mb]) => `${c} ${mb.toFixed(0)}`).join(', ')}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (failed > 0 || writesAcknowledged > stored) process.exitCode = 1;
}

/** The demo admin's session: the password sign-in answers a one-time token, which the console exchanges for the cookie. */
async function signIn(base: string): Promise<{ cookie: string; userId: string }> {
  const answer = await fetch(`${base}/auth/email`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: demoAdmin.email, password: demoAdmin.password }).toString(),
  });
  if (!answer.ok) throw new Error(`sign-in failed: ${answer.status} ${await answer.text()}`);
  const { token } = (await answer.json()) as { token: string };
  const verified = await fetch(`${base}/identity/one-time-token/verify`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (!verified.ok) throw new Error(`token exchange failed: ${verified.status} ${await verified.text()}`);
  const { user } = (await verified.json()) as { user: { id: string } };
  return { cookie: verified.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), userId: user.id };
}

async function firstOrganisation(base: string, session: Record<string, string>): Promise<string> {
  const query = async <T>(text: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const answer = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { origin: base, ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ query: text, variables }),
    });
    const body = (await answer.json()) as { data?: T; errors?: unknown };
    if (!body.data) throw new Error(`GraphQL failed: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
  const { getOrganisations } = await query<{ getOrganisations: Array<{ id: string }> }>('query getOrganisations { getOrganisations { id } }');
  // One without a domain licence: imported teachers join it as pending teachers.
  for (const { id } of getOrganisations) {
    const { getOrganisationById } = await query<{ getOrganisationById: { isDomain: boolean } }>('query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { isDomain } }', { id });
    if (!getOrganisationById.isDomain) return id;
  }
  throw new Error('the demo admin has no organisation without a domain licence');
}

function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Number(line?.split(/\s+/)[1]) / 1024;
  } catch {
    return NaN;
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
