import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('./seed-cli.ts', import.meta.url));
const serverDir = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the seed CLI; these cases all end before it opens a database. */
function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: serverDir, env: { ...process.env, DATABASE_URL: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('npm run seed', () => {
  it('prints its usage with --help', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: npm run seed -- [--teachers N] [--seed S]');
  });

  it.each([
    [['--teachers', 'many'], "--teachers must be a whole number from 0 to 1000000, got 'many'"],
    [['--teachers', '-5'], '--teachers'],
    [['--seed', '1.5'], "--seed must be a whole number from 0 to 2147483647, got '1.5'"],
    [['--teachers', '2000000'], '--teachers must be a whole number from 0 to 1000000'],
    [['--colour', 'blue'], "Unknown option '--colour'"],
  ])('rejects %j with exit code 2 and a clear message', async (args, message) => {
    const { code, stderr } = await run(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage:');
  });
});
