/**
 * What the HTTP benchmarks (teachers, analytics) share: the admin statement that makes or drops their database,
 * latency percentiles, a load loop in this thread, and the load generator in its worker thread (load-client.mjs).
 */
import { Worker } from 'node:worker_threads';

export { adminQuery, databaseUrl } from '../apps/server/test/database-template.js';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Percentiles of latencies (ms) taken over `seconds`; the latencies kept, sorted, so rounds can be merged. */
export function summary(latencies: number[], seconds: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: sorted.length / seconds, seconds, latencies: sorted };
}
export type Summary = ReturnType<typeof summary>;

/** Runs `task` `total` times with `concurrency` in flight, in this thread; latencies in ms. */
export async function load(total: number, concurrency: number, task: (i: number) => Promise<void>): Promise<Summary> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return summary(latencies, (performance.now() - started) / 1000);
}

/** A task for the worker: an HTTP request answered 200, or bare statements run at once on its own pool. */
export type ClientTask =
  | { url: string; headers?: Record<string, string>; method?: string; body?: string }
  | { statements: Array<{ text: string; params: unknown[] }> };

/**
 * Starts the load generator in its worker thread (bench/load-client.mjs), with a pool of `poolSize` on `databaseUrl`
 * for bare statements (none on PGlite). `run` sends tasks with `concurrency` in flight and summarises their latencies.
 */
export function startLoadClient(pool?: { databaseUrl: string; poolSize: number }) {
  const worker = new Worker(new URL('./load-client.mjs', import.meta.url), { workerData: pool ?? {} });
  let jobs = 0;
  return {
    async run(concurrency: number, tasks: ClientTask[]): Promise<Summary> {
      const id = ++jobs;
      const answer = await new Promise<{ latencies: number[]; seconds: number; error?: string }>((resolve) => {
        const listen = (message: { id: number; latencies: number[]; seconds: number; error?: string }) => {
          if (message.id !== id) return;
          worker.off('message', listen);
          resolve(message);
        };
        worker.on('message', listen);
        worker.postMessage({ id, concurrency, tasks });
      });
      if (answer.error) throw new Error(answer.error);
      return summary(answer.latencies, answer.seconds);
    },
    close(): void {
      worker.postMessage('close');
    },
  };
}
