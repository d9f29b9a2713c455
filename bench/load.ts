/**
 * What the HTTP benchmarks (teachers, analytics) share: the admin statement that makes or drops their database,
 * latency percentiles, a load loop in this thread, and the load generator in its worker thread (load-client.mjs).
 */
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

import { adminQuery } from '../apps/server/test/database-template.js';

export { adminQuery, databaseUrl } from '../apps/server/test/database-template.js';

/**
 * A benchmark's own database `name` on the PostgreSQL server of BENCH_DATABASE_URL (else `fallbackAdminUrl`): the
 * server's admin URL, the database's URL, and the statements that make it afresh and drop it at the end.
 */
export function benchDatabase(name: string, fallbackAdminUrl: string) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? fallbackAdminUrl;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const drop = async () => void (await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  return {
    adminUrl,
    dbUrl: url.toString(),
    drop,
    async recreate() {
      await drop();
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    },
  };
}

/** The first line of a benchmark's report: Node, the machine's load, and the database it runs on. */
export const machineLine = (database: string) => `Node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}, ${database}`;

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Percentiles of latencies (ms) taken over `seconds`; the latencies kept, sorted, so rounds can be merged. */
export function summary(latencies: number[], seconds: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), rps: sorted.length / seconds, seconds, latencies: sorted };
}
export type Summary = ReturnType<typeof summary>;

/** A summary as the reports print it: p50, p99 and requests a second. */
export const formatSummary = (r: Pick<Summary, 'p50' | 'p99' | 'rps'>) => `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${Math.round(r.rps)} req/s`;

/** The machine's load average over the last minute, printed beside each result: the machine is shared. */
export const loadNow = () => `load ${loadavg()[0]!.toFixed(1)}`;

/**
 * Samples this process's memory every 20 ms until `stop`: where it stood at the start, and the highest RSS and JS heap
 * seen meanwhile (a stream's peak, which the value at its end would not show).
 */
export function sampleMemoryPeak() {
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heapUsed: before.heapUsed };
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    peak.rss = Math.max(peak.rss, m.rss);
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  }, 20);
  return {
    before,
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

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
  const client = {
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
    /**
     * `a` and `b` in `rounds` alternating slices (a, b, a, b, …), each with `concurrency` in flight, so a change in the
     * shared machine's load weighs on both alike; one summary per side.
     */
    async interleaved(concurrency: number, a: ClientTask[], b: ClientTask[], rounds = 4): Promise<[Summary, Summary]> {
      const sides = [{ tasks: a, latencies: [] as number[], seconds: 0 }, { tasks: b, latencies: [] as number[], seconds: 0 }];
      for (let round = 0; round < rounds; round++) {
        for (const side of sides) {
          const size = Math.ceil(side.tasks.length / rounds);
          const answer = await client.run(concurrency, side.tasks.slice(round * size, (round + 1) * size));
          side.latencies.push(...answer.latencies);
          side.seconds += answer.seconds;
        }
      }
      return sides.map((side) => summary(side.latencies, side.seconds)) as [Summary, Summary];
    },
    close(): void {
      worker.postMessage('close');
    },
  };
  return client;
}
