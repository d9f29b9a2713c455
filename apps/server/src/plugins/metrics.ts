import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { watchPool } from '../db/pool-stats.js';
import type { Env } from '../env.js';
import { appError, unauthorised, type AppError } from '../errors.js';

/**
 * Prometheus metrics (docs/operations.md, "Metrics"). Off unless METRICS_TOKEN or METRICS_PORT is set: then nothing
 * is measured and /metrics does not exist. With METRICS_PORT, /metrics is served only by a second listener
 * (`app.metrics.listen`, started by server.ts); with METRICS_TOKEN alone, by the app on PORT. Either way a set
 * METRICS_TOKEN must come as `Authorization: Bearer <token>`.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics in Prometheus text format; undefined when metrics are off. */
    metrics?: {
      contentType: string;
      text(): Promise<string>;
      /** Starts the METRICS_PORT listener (server.ts, after the app listens); it closes with the app. Resolves with its address. */
      listen(host: string, port: number): Promise<string>;
    };
  }
}

/** The route label of a request no route matched (unknown paths, and the console's pages served by the not-found handler). */
const UNMATCHED_ROUTE = '(unmatched)';
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Job queue counts are read from the database at most this often, however many scrapers ask. */
const QUEUE_STATS_MAX_AGE_MS = 5_000;
/** A scrape waits at most this long for the queue counts, then answers with the last ones. */
const QUEUE_STATS_TIMEOUT_MS = 2_000;

const metricsEnabled = (env: Pick<Env, 'METRICS_TOKEN' | 'METRICS_PORT'>) => Boolean(env.METRICS_TOKEN || env.METRICS_PORT);

const digest = (text: string) => createHash('sha256').update(text).digest();
/** `Bearer <token>`, the scheme's case free (RFC 9110 section 11.1), as the analytics intake reads its key. */
const BEARER = /^Bearer ([^\s,]+)$/i;
const BEARER_CHALLENGE = 'Bearer realm="metrics"';
const TOKEN_NEEDED = 'Metrics need Authorization: Bearer <METRICS_TOKEN>';

/** Whether the request may read the metrics: no token configured, or its bearer token is it (compared in constant time). */
function metricsAuthorised(headers: IncomingHttpHeaders, token: string | undefined): boolean {
  if (!token) return true;
  const given = BEARER.exec(headers.authorization ?? '')?.[1];
  return !!given && timingSafeEqual(digest(given), digest(token));
}

export const metricsPlugin = fp(async (app) => {
  if (!metricsEnabled(app.env)) return;
  // A registry per app, not prom-client's global one: tests build many apps in one process.
  const registry = new Registry();
  // Process CPU, memory, file descriptors, GC, and event-loop lag (monitorEventLoopDelay).
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'quire_http_request_errors_total',
    help: 'Answers with a 4xx or 5xx status, by route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    // The pattern (/api/:teacherId), never the URL: one series per route, whatever the ids.
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    duration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, reply.elapsedTime / 1000);
    if (status >= 400) errors.inc({ method, route, status: String(status) });
  });

  registerDatabaseMetrics(app, registry);
  registerJobMetrics(app, registry);

  const read = { contentType: registry.contentType, text: () => registry.metrics() };
  let server: Server | undefined;
  app.decorate('metrics', {
    ...read,
    async listen(host: string, port: number) {
      const started = createMetricsServer(app, read);
      await new Promise<void>((resolve, reject) => {
        started.once('error', reject);
        started.listen({ host, port }, () => resolve());
      });
      server = started;
      const bound = started.address();
      return typeof bound === 'object' && bound ? `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}` : String(bound);
    },
  });
  app.addHook('onClose', async () => {
    const open = server;
    if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
  });

  // With METRICS_PORT the app's own port has no /metrics (the second listener serves it).
  if (app.env.METRICS_PORT) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!metricsAuthorised(request.headers, app.env.METRICS_TOKEN)) {
      reply.header('www-authenticate', BEARER_CHALLENGE);
      throw unauthorised(TOKEN_NEEDED);
    }
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(await registry.metrics());
  });
});

function registerDatabaseMetrics(app: FastifyInstance, registry: Registry): void {
  const readPool = watchPool(app.database);
  const labels = { database: app.database.kind };
  const gauge = (name: string, help: string, read: (stats: ReturnType<typeof readPool>) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['database'] as const,
      registers: [registry],
      collect() {
        this.set(labels, read(readPool()));
      },
    });
  gauge('quire_db_pool_size', 'Connections the pool may open (DATABASE_POOL_SIZE; 1 for PGlite).', (s) => s.size);
  gauge('quire_db_pool_in_use', 'Connections running a statement or held by a transaction (PGlite: 1 while a statement runs).', (s) => s.inUse);
  gauge('quire_db_pool_idle', 'Open connections nobody holds.', (s) => s.idle);
  gauge('quire_db_pool_waiting', 'Queries waiting for a connection (PGlite: waiting for its one connection).', (s) => s.waiting);
}

function registerJobMetrics(app: FastifyInstance, registry: Registry): void {
  const attemptsFailed = new Counter({
    name: 'quire_job_attempts_failed_total',
    help: 'Job attempts whose handler threw in this process (each is retried until its queue gives up).',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  app.jobs.onAttemptFailed((queue) => attemptsFailed.inc({ queue }));

  let cached: { at: number; rows: Awaited<ReturnType<typeof app.jobs.stats>> } | undefined;
  let reading: Promise<void> | undefined;
  const refresh = async () => {
    if (cached && Date.now() - cached.at < QUEUE_STATS_MAX_AGE_MS) return;
    reading ??= app.jobs
      .stats()
      .then((rows) => {
        cached = { at: Date.now(), rows };
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'metrics: cannot read the job queue counts'))
      .finally(() => {
        reading = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reading, new Promise((resolve) => (timer = setTimeout(resolve, QUEUE_STATS_TIMEOUT_MS)))]);
    clearTimeout(timer);
  };
  new Gauge({
    name: 'quire_job_queue_jobs',
    help: "Jobs per queue and state (ready, deferred, active, failed), as pg-boss's monitor last counted them (about once a minute).",
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      await refresh();
      this.reset();
      for (const row of cached?.rows ?? []) {
        for (const state of ['ready', 'deferred', 'active', 'failed'] as const) this.set({ queue: row.queue, state }, row[state]);
      }
    },
  });
}

/**
 * The METRICS_PORT listener: GET /metrics (with METRICS_TOKEN when set) and nothing else, a plain Node server so none of
 * the app's routes, hooks or console reach that port.
 */
function createMetricsServer(app: FastifyInstance, metrics: { contentType: string; text(): Promise<string> }): Server {
  return createServer((request, response) => {
    const answer = (error: AppError, headers: Record<string, string> = {}) =>
      response
        .writeHead(error.statusCode, { 'content-type': 'application/json; charset=utf-8', ...headers })
        .end(JSON.stringify({ code: error.code, message: error.message }));
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      answer(appError('not_found', { message: 'This port serves only GET /metrics' }));
      return;
    }
    if (!metricsAuthorised(request.headers, app.env.METRICS_TOKEN)) {
      answer(unauthorised(TOKEN_NEEDED), { 'www-authenticate': BEARER_CHALLENGE });
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics: cannot collect');
        response.writeHead(500).end();
      },
    );
  });
}
