import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PORT_RANGE } from './env.js';

const E2E_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(E2E_DIR, '..');

/**
 * The run's data folder (the server's DATA_DIR, its log, mail): `e2e/.data`, or E2E_DATA_DIR, so two runs
 * on one checkout (CI's PGlite and PostgreSQL passes at the same time) never share one.
 */
export const E2E_DATA_ROOT = resolve(E2E_DIR, process.env.E2E_DATA_DIR || '.data');

/** First port in the range that nothing listens on (E2E_PORT pins one). */
export async function findFreePort(): Promise<number> {
  if (process.env.E2E_PORT) return Number(process.env.E2E_PORT);
  // Start at a random offset so two runs on one machine rarely race for the same port.
  const size = PORT_RANGE.last - PORT_RANGE.first + 1;
  const offset = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i += 1) {
    const port = PORT_RANGE.first + ((offset + i) % size);
    if (await isFree(port)) return port;
  }
  throw new Error(`No free port between ${PORT_RANGE.first} and ${PORT_RANGE.last}`);
}

/** `count` different ports of the range that nothing listens on now, none of `exclude` (ports chosen but not taken yet). */
export async function findFreePorts(count: number, exclude: number[] = []): Promise<number[]> {
  const size = PORT_RANGE.last - PORT_RANGE.first + 1;
  const offset = Math.floor(Math.random() * size);
  const ports: number[] = [];
  for (let i = 0; i < size && ports.length < count; i += 1) {
    const port = PORT_RANGE.first + ((offset + i) % size);
    if (!exclude.includes(port) && (await isFree(port))) ports.push(port);
  }
  if (ports.length < count) throw new Error(`Fewer than ${count} free ports between ${PORT_RANGE.first} and ${PORT_RANGE.last}`);
  return ports;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}

export interface StartedServer {
  url: string;
  logFile: string;
  /** The server's process id (the proxy benchmark reads its memory). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the real server (apps/server/src/server.ts) and resolves once /readyz answers 200. `publicUrl` is where users
 * reach it (a proxy's address; default its own); `logFile` is appended to, so a restarted copy keeps one log.
 */
export async function startServer(options: { port: number; env: Record<string, string>; logFile: string; publicUrl?: string }): Promise<StartedServer> {
  const url = `http://localhost:${options.port}`;
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(process.execPath, ['--import', 'tsx', join('apps', 'server', 'src', 'server.ts')], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env, PORT: String(options.port), HOST: 'localhost', PUBLIC_URL: options.publicUrl ?? url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  // If the test runner dies without its teardown, do not leave the server running.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', killOnExit);
    log.end();
  };

  const deadline = Date.now() + Number(process.env.E2E_SERVER_TIMEOUT_MS || 180_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await isReady(url)) return { url, logFile: options.logFile, pid: child.pid ?? 0, stop };
    await Promise.race([exited, new Promise((r) => setTimeout(r, 500))]);
  }
  await stop();
  throw new Error(`The server did not become ready at ${url}/readyz. Its log (${options.logFile}) ends with:\n${tail(options.logFile)}`);
}

async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}
