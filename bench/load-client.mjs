/**
 * The benchmarks' load generator, in a worker thread of its own, so the requests it sends (fetch) and the bare
 * statements it runs (pg) do not take CPU time from the server's event loop in the main thread: what is measured
 * is the server, as a browser elsewhere would see it.
 *
 * Messages in: { id, concurrency, tasks } where each task is { url, headers } (an HTTP GET answered 200; with
 * `method` and `body` another method, e.g. a POST of a JSON batch) or
 * { statements: [{ text, params }] } (run at once, each on its own pooled connection). Out: { id, latencies } (ms)
 * or { id, error }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';

const pool = workerData?.databaseUrl ? new pg.Pool({ connectionString: workerData.databaseUrl, max: workerData.poolSize }) : null;
pool?.on('error', () => undefined);

async function run(task) {
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
