import { PgBoss, fromPglite, type Db, type Job, type QueueOptions, type SendOptions } from 'pg-boss';
import type { Database } from '../db/client.js';
import type { Env } from '../env.js';

/**
 * Background jobs on the same database as everything else (pg-boss): PostgreSQL through the app's
 * pool, embedded PGlite through pg-boss's own adapter (it runs multi-statement SQL with exec()).
 * Work that may fail outside our control (mail, exports) runs here with retries and backoff.
 */
export interface JobQueue {
  /** Creates the queue (idempotent) with its retry policy and starts one worker on it. */
  work<T extends object>(queue: string, options: QueueOptions, handler: (job: Job<T>) => Promise<void>): Promise<void>;
  /** Queues a job; wakes the local worker at once instead of waiting for its next poll. */
  send<T extends object>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Resolves when the queue has no waiting, retrying or running job (tests, graceful shutdown checks). */
  waitForIdle(queue: string, timeoutMs?: number): Promise<void>;
  /** Each queue's jobs by state, as pg-boss's monitor last counted them (one row per queue, no scan of jobs). */
  stats(): Promise<QueueCounts[]>;
  /** Calls `listener` each time a handler of this process throws (the attempt is retried or the job fails). */
  onAttemptFailed(listener: (queue: string) => void): void;
  stop(): Promise<void>;
}

/** One queue's jobs by state (pg-boss's cached counts, refreshed by its monitor about once a minute). */
interface QueueCounts {
  queue: string;
  /** Waiting to run now. */
  ready: number;
  /** Waiting for their start time (a retry's backoff, or sent with startAfter). */
  deferred: number;
  active: number;
  /** Failed for good and still kept (pg-boss deletes them after the queue's retention). */
  failed: number;
}

export interface JobQueueOptions {
  log: (line: string, error?: unknown) => void;
}

export async function startJobQueue(database: Database, env: Env, options: JobQueueOptions): Promise<JobQueue> {
  const boss = new PgBoss({
    db: pgBossDatabase(database),
    ...(database.kind === 'pglite' ? { backend: 'pglite' as const } : {}),
    schema: 'pgboss',
    // No cron schedules yet; maintenance still runs (expiry, retention).
    schedule: false,
  });
  boss.on('error', (error: unknown) => options.log('job queue error', error));
  await boss.start();

  const workers = new Map<string, string>();
  const failureListeners: ((queue: string) => void)[] = [];
  const pollingIntervalSeconds = env.NODE_ENV === 'test' ? 0.5 : 2;

  return {
    async work(queue, queueOptions, handler) {
      await boss.createQueue(queue, queueOptions);
      const id = await boss.work<object>(queue, { pollingIntervalSeconds, batchSize: 1 }, async ([job]) => {
        if (!job) return;
        try {
          await handler(job as Job<never>);
        } catch (error) {
          for (const listener of failureListeners) listener(queue);
          throw error;
        }
      });
      workers.set(queue, id);
    },
    async send(queue, data, sendOptions) {
      const id = await boss.send(queue, data, sendOptions ?? {});
      const worker = workers.get(queue);
      if (worker) boss.notifyWorker(worker);
      return id;
    },
    async waitForIdle(queue, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const jobs = await boss.findJobs(queue);
        const running = jobs.filter((j) => j.state === 'created' || j.state === 'retry' || j.state === 'active');
        if (running.length === 0) return;
        if (Date.now() > deadline) throw new Error(`Queue ${queue} still has ${running.length} job(s) after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stats() {
      const queues = await boss.getQueues();
      return queues.map((q) => ({ queue: q.name, ready: q.readyCount, deferred: q.deferredCount, active: q.activeCount, failed: q.failedCount }));
    },
    onAttemptFailed(listener) {
      failureListeners.push(listener);
    },
    async stop() {
      // graceful: lets running handlers finish; close: false because the app owns the database.
      await boss.stop({ graceful: true, close: false, timeout: 10_000 });
    },
  };
}

/**
 * The database as pg-boss reaches it. Embedded: pg-boss's own PGlite adapter, each of its statements (or statement
 * blocks) taken through the app's session, so none lands inside a request's open transaction; the adapter answers a
 * failed statement with a ROLLBACK, which would otherwise undo that request's writes (db/pglite-session.ts). Exported
 * for db/transactions.test.ts. @internal
 */
export function pgBossDatabase(database: Database): Db {
  const { session } = database;
  if (!session) return poolAdapter(database);
  const adapter = fromPglite(session.pglite);
  return {
    executeSql: (text, values) => session.exclusive(() => adapter.executeSql(text, values)),
    ...(adapter.listen ? { listen: (...args: Parameters<NonNullable<Db['listen']>>) => session.exclusive(() => adapter.listen!(...args)) } : {}),
  };
}

/** pg-boss over the app's pg pool, so jobs share its connections and its database. */
function poolAdapter(database: Database): Db {
  const pool = database.pool;
  if (!pool) throw new Error('PostgreSQL database without a pool');
  return {
    executeSql: async (text, values) => {
      const result = await pool.query(text, values);
      // Multi-statement text returns one result per statement; pg-boss wants the rows of them all.
      const results = Array.isArray(result) ? result : [result];
      return { rows: results.flatMap((r: { rows?: unknown[] }) => r.rows ?? []) };
    },
  };
}
