import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { openTestDatabase } from './helper.js';

/** Starts the real server.ts the way `npm start` does and reports how it ended. */
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'quire-start-'));

const children = new Set<ChildProcess>();

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function startServer(env: Record<string, string>, until?: { stdout: RegExp; then: (stdout: string) => Promise<void> | void }): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? scratch, NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_SEED: 'false', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  let triggered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (until && !triggered && until.stdout.test(stdout)) {
      triggered = true;
      void Promise.resolve(until.then(stdout)).finally(() => child.kill('SIGTERM'));
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 140_000);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      children.delete(child);
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function expectOneLineFailure(run: Run, text: string) {
  expect(run.code).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toContain(text);
}

afterAll(() => {
  // A test that timed out must not leave its server running.
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

describe('starting the server', () => {
  it('stops with one line when DATABASE_URL is malformed', async () => {
    const run = await startServer({ DATABASE_URL: 'mysql://localhost/quire' });
    expectOneLineFailure(run, 'Invalid configuration: DATABASE_URL must be a postgres:// or postgresql:// URL');
  });

  it('stops with one line listing each bad setting', async () => {
    const run = await startServer({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'Invalid configuration: PORT must be a whole number from 0 to 65535',
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]);
  });

  it('stops with one line when the database cannot be reached', async () => {
    const run = await startServer({ DATABASE_URL: 'postgres://postgres@127.0.0.1:3199/quire' });
    expectOneLineFailure(run, 'Cannot reach the PostgreSQL server at 127.0.0.1:3199/quire');
  });

  it('stops with one line when DATA_DIR is not writable', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a folder');
    const run = await startServer({ DATA_DIR: join(file, 'data') });
    expectOneLineFailure(run, 'DATA_DIR is not writable');
  });

  it('stops with one line when the port is in use, before it opens the database or writes anything', async () => {
    const occupied: Server = createServer();
    await new Promise<void>((resolve) => occupied.listen(3151, '127.0.0.1', resolve));
    try {
      const dataDir = join(scratch, 'untouched');
      const run = await startServer({ DATA_DIR: dataDir, PORT: '3151' });
      expectOneLineFailure(run, 'Port 3151 is already in use: stop the other process or set PORT.');
      // Said at once: no embedded database and no generated secret in DATA_DIR.
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      await new Promise<void>((resolve) => occupied.close(() => resolve()));
    }
  });

  describe('with a database', () => {
    // A fresh PostgreSQL database when the tests run against one (never the admin database itself),
    // else embedded PGlite in a scratch folder.
    let postgres: { database: Database; url?: string } | undefined;
    const database = (name: string): Record<string, string> =>
      postgres?.url ? { DATABASE_URL: postgres.url, DATA_DIR: join(scratch, name) } : { DATA_DIR: join(scratch, name) };

    beforeAll(async () => {
      if (process.env.TEST_DATABASE_URL) postgres = await openTestDatabase();
    });
    afterAll(async () => {
      await postgres?.database.close();
    });

    it('prints its URL, serves, and shuts down cleanly on SIGTERM', async () => {
      let health: number | undefined;
      const run = await startServer(
        { ...database('shared'), PORT: '3152' },
        {
          stdout: /running at/,
          then: async () => {
            health = (await fetch('http://127.0.0.1:3152/healthz')).status;
          },
        },
      );
      expect(run.stdout).toContain('Quire is running at http://127.0.0.1:3152');
      expect(health).toBe(200);
      // No AUTH_SECRET: a random one is generated and kept beside the data, never a constant (docs/security.md).
      const kept = join(scratch, 'shared', 'auth-secret');
      expect(run.stdout).toContain(`AUTH_SECRET is not set: generated one and kept it in ${kept} (mode 0600)`);
      expect(statSync(kept).mode & 0o777).toBe(0o600);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    }, 150_000);
  });
});
