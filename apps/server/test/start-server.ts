import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The server's package folder, where `src/server.ts` is started from. */
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A scratch folder and the server processes a test file starts. `cleanUp()` (in the file's afterAll) kills any
 * server a timed-out test left running and removes the folder.
 */
export function serverStarter() {
  const scratch = mkdtempSync(join(tmpdir(), 'quire-start-'));
  const children = new Set<ChildProcess>();

  /** Starts the real server.ts the way `npm start` does, in a child process, and reports how it ended. */
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

  function cleanUp(): void {
    for (const child of children) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }

  return { scratch, startServer, cleanUp };
}

export function expectOneLineFailure(run: Run, text: string) {
  expect(run.code).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toContain(text);
}
