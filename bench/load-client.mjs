/**
 * The benchmarks' load generator, in a worker thread of its own, so the requests it sends (HTTP) and the bare
 * statements it runs (pg) do not take CPU time from the server's event loop in the main thread: what is measured
 * is the server, as a browser elsewhere would see it.
 *
 * HTTP goes through undici's `request` on a keep-alive pool (the HTTP/1.1 client Node's own fetch is built on, without
 * fetch's WHATWG streams and header objects), asking for the compression fetch and browsers ask for over plain HTTP.
 * Node's fetch cost the client thread about 0.37 ms of CPU a request, on the same two cores as the server and the
 * database: more than a kept analytics answer costs the server (docs/performance-log.md, "Analytics"). The bare
 * column's client (pg) was never that heavy, so fetch weighed on the HTTP column only. BENCH_HTTP_CLIENT=fetch brings
 * it back.
 *
 * Messages in: { id, concurrency, tasks } where each task is { url, headers } (an HTTP GET answered 200; with
 * `method` and `body` another method, e.g. a POST of a JSON batch) or
 * { statements: [{ text, params }] } (run at once, each on its own pooled connection). Out: { id, latencies } (ms)
 * or { id, error }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { Agent, request } from 'undici';

const pool = workerData?.databaseUrl ? new pg.Pool({ connectionString: workerData.databaseUrl, max: workerData.poolSize }) : null;
pool?.on('error', () => undefined);

const lean = process.env.BENCH_HTTP_CLIENT !== 'fetch';
/** As many keep-alive connections per origin as requests in flight (a benchmark sends at most a few hundred). */
const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
/** What Node's fetch asks for over http:// (and so what these benchmarks measured before). */
const ACCEPT_ENCODING = 'gzip, deflate';

async function run(task) {
  if (task.url && lean) {
    const res = await request(task.url, { method: task.method ?? 'GET', headers: { 'accept-encoding': ACCEPT_ENCODING, ...task.headers }, body: task.body, dispatcher: agent });
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} for ${task.url}`);
    await res.body.arrayBuffer();
    return;
  }
  if (task.url) {
    const res = await fetch(task.url, { method: task.method ?? 'GET', headers: task.headers, body: task.body });
    if (res.status !== 200) throw new Error(`HTTP ${res.status} for ${task.url}`);
    await res.arrayBuffer();
    return;
  }
  await Promise.all(task.statements.map((s) => pool.query(s.text, s.params)));
}

parentPort.on('message', async (message) => {
  if (message === 'close') {
    await pool?.end();
    parentPort.close();
    return;
  }
  const { id, concurrency, tasks } = message;
  try {
    const latencies = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < tasks.length) {
          const task = tasks[next++];
          const t0 = performance.now();
          await run(task);
          latencies.push(performance.now() - t0);
        }
      }),
    );
    parentPort.postMessage({ id, latencies, seconds: (performance.now() - started) / 1000 });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
