import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.js';

const TOKEN = 'metrics-token-metrics-token-0123456789';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t.close());

async function scrape(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** The value of one series (name and exact label set as Prometheus writes them), 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('/metrics with METRICS_TOKEN', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong token', bearer(`${TOKEN}x`)],
    ['another scheme', { authorization: `Basic ${TOKEN}` }],
    ['the token without a scheme', { authorization: TOKEN }],
  ])('refuses a scrape with %s (401, a Bearer challenge, no metrics)', async (_, headers) => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(res.json()).toMatchObject({ code: 'unauthorised' });
    expect(res.body).not.toContain('quire_http_request_duration_seconds');
  });

  it('answers Prometheus text with the token: HTTP, database pool, job queue and event-loop metrics', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const kind = t.database.kind;
    for (const series of [
      '# TYPE quire_http_request_duration_seconds histogram',
      '# TYPE quire_http_request_errors_total counter',
      `quire_db_pool_size{database="${kind}"} ${kind === 'pglite' ? 1 : t.env.DATABASE_POOL_SIZE}`,
      `quire_db_pool_in_use{database="${kind}"}`,
      `quire_db_pool_idle{database="${kind}"}`,
      `quire_db_pool_waiting{database="${kind}"}`,
      // The mail service's queue exists from the start.
      'quire_job_queue_jobs{queue="send-mail",state="ready"}',
      'quire_job_queue_jobs{queue="send-mail",state="failed"}',
      '# TYPE quire_job_attempts_failed_total counter',
      '# TYPE nodejs_eventloop_lag_seconds gauge',
      '# TYPE nodejs_eventloop_lag_p99_seconds gauge',
    ]) {
      expect(res.body).toContain(series);
    }
  });

  it('counts a request under its route pattern, never its URL, with its status class', async () => {
    const orgId = randomUUID();
    const series = 'quire_http_request_duration_seconds_count{method="GET",route="/api/organisations/:orgId/settings",status_class="4xx"}';
    const before = value(await scrape(), series);
    const res = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/settings` });
    expect(res.statusCode).toBe(401);
    const after = await scrape();
    expect(value(after, series)).toBe(before + 1);
    expect(after).not.toContain(orgId);
  });

  it('moves the error count after a 4xx answer, by route and status, and leaves it alone after a 2xx', async () => {
    const refused = 'quire_http_request_errors_total{method="GET",route="/api/organisations/:orgId/settings",status="401"}';
    const health = 'quire_http_request_errors_total{method="GET",route="/healthz",status="200"}';
    const before = value(await scrape(), refused);
    await t.app.inject({ method: 'GET', url: `/api/organisations/${randomUUID()}/settings` });
    await t.app.inject({ method: 'GET', url: `/api/organisations/${randomUUID()}/settings` });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const after = await scrape();
    expect(value(after, refused)).toBe(before + 2);
    expect(after).not.toContain(health);
    expect(value(after, 'quire_http_request_duration_seconds_count{method="GET",route="/healthz",status_class="2xx"}')).toBeGreaterThanOrEqual(1);
  });

  it('puts every unknown path under one route label', async () => {
    const path = `/no-such-page-${randomUUID()}`;
    const series = 'quire_http_request_errors_total{method="GET",route="(unmatched)",status="404"}';
    const before = value(await scrape(), series);
    expect((await t.app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } })).statusCode).toBe(404);
    const after = await scrape();
    expect(value(after, series)).toBe(before + 1);
    expect(after).not.toContain(path);
  });

  it('reports the connection held by a transaction, and for PGlite the queries waiting for its one session', async () => {
    const kind = t.database.kind;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 400));
    // A transaction that holds its connection while the event loop is free (PGlite runs each statement on this thread).
    const held = t.app.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await pause();
    });
    const queued = sql`SELECT 1`.execute(t.app.db);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const busy = await t.app.metrics!.text();
    await Promise.all([held, queued]);
    expect(value(busy, `quire_db_pool_in_use{database="${kind}"}`)).toBeGreaterThanOrEqual(1);
    if (kind === 'pglite') expect(value(busy, 'quire_db_pool_waiting{database="pglite"}')).toBeGreaterThanOrEqual(1);
  });

  it("counts a job attempt whose handler throws, by queue", async () => {
    const queue = 'metrics-test-failing';
    await t.app.jobs.work(queue, { retryLimit: 0 }, async () => {
      throw new Error('this job always fails');
    });
    await t.app.jobs.send(queue, {});
    await t.app.jobs.waitForIdle(queue);
    expect(value(await scrape(), `quire_job_attempts_failed_total{queue="${queue}"}`)).toBe(1);
  });
});

describe('/metrics with neither METRICS_TOKEN nor METRICS_PORT', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await buildTestApp();
  });
  afterAll(() => off.close());

  it('does not exist (404), with or without a token', async () => {
    for (const headers of [{}, bearer(TOKEN)]) {
      const res = await off.app.inject({ method: 'GET', url: '/metrics', headers: { accept: 'application/json', ...headers } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('nodejs_eventloop_lag');
    }
    expect(off.app.metrics).toBeUndefined();
  });
});

describe('/metrics on METRICS_PORT', () => {
  let port: TestApp;
  let address: string;
  beforeAll(async () => {
    // Any METRICS_PORT moves /metrics off the app's port; the test listens on a free one.
    port = await buildTestApp({ METRICS_PORT: 9464, METRICS_TOKEN: TOKEN });
    address = await port.app.metrics!.listen('127.0.0.1', 0);
  });
  afterAll(() => port.close());

  it("serves /metrics only on its own listener, with the token, and nothing else there", async () => {
    expect((await port.app.inject({ method: 'GET', url: '/metrics', headers: { accept: 'application/json', ...bearer(TOKEN) } })).statusCode).toBe(404);
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const refused = await fetch(`${address}/metrics`);
    expect(refused.status).toBe(401);
    const scraped = await fetch(`${address}/metrics`, { headers: bearer(TOKEN) });
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('quire_db_pool_in_use');
    expect((await fetch(`${address}/healthz`, { headers: bearer(TOKEN) })).status).toBe(404);
  });
});
