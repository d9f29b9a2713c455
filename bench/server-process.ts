/**
 * A Quire server in a process of its own, for the benchmarks that compare two servers on one database: started with
 * `startServerProcess`, it builds the app as the benchmark's own in-process server does (testEnv with these
 * overrides, `logger: false`), listens, and says so; it closes when the benchmark ends or goes away.
 *
 * Why a process: two servers in the benchmark's process share one V8 heap, so one server's garbage (the answer cache's
 * comparison server makes an answer from the database for every request) is collected in the other's pauses too. Two
 * servers of a real deployment do not share a heap (docs/performance-log.md, "The cached server in a process of its
 * own").
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { Env } from '../apps/server/src/env.js';

/** Starts this file as a child process serving `overrides` (testEnv's), and resolves once it listens. */
export async function startServerProcess(overrides: Partial<Env>): Promise<{ child: ChildProcess; close: () => Promise<void> }> {
  const child = fork(new URL(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, QUIRE_BENCH_SERVER: JSON.stringify(overrides) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (message) => (message === 'listening' ? resolve() : reject(new Error(String(message)))));
    child.once('exit', (code) => reject(new Error(`the server process ended (exit code ${code}) before it listened`)));
  });
  return {
    child,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}

if (process.env.QUIRE_BENCH_SERVER && process.send) {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { openDatabase } = await import('../apps/server/src/db/client.js');
  const { testEnv } = await import('../apps/server/test/helper.js');
  const env = testEnv(JSON.parse(process.env.QUIRE_BENCH_SERVER) as Partial<Env>);
  try {
    const database = await openDatabase({ ...env, inMemory: false });
    const app = await buildApp({ env, database, logger: false });
    await app.listen({ port: env.PORT, host: '127.0.0.1' });
    let closing: Promise<void> | undefined;
    // Once, whether the benchmark asks or goes away (both can happen).
    const close = () =>
      (closing ??= (async () => {
        await app.close();
        await database.close();
        process.exit(0);
      })());
    process.on('message', (message) => void (message === 'close' && close()));
    process.on('disconnect', () => void close());
    process.send('listening');
  } catch (error) {
    process.send(String(error));
    process.exit(1);
  }
}
