import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The first-download budget (scripts/bundle-size.mjs --budget-kb, run by CI after the build) counts what /sign-in
 * fetches before its choices show: the page's scripts and the ones the server names in it for /sign-in. Checked on
 * made-up builds whose files are random bytes, so their gzip size is about their size.
 */
const script = join(dirname(fileURLToPath(import.meta.url)), 'bundle-size.mjs');
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function build(files: Record<string, number>, signInScripts: string[]): string {
  const dist = mkdtempSync(join(tmpdir(), 'quire-bundle-size-'));
  made.push(dist);
  mkdirSync(join(dist, 'static'));
  for (const [name, kb] of Object.entries(files)) writeFileSync(join(dist, 'static', name), randomBytes(kb * 1024));
  writeFileSync(
    join(dist, 'index.html'),
    '<script type="module" crossorigin src="/static/entry.js"></script>\n<link rel="modulepreload" crossorigin href="/static/react.js">\n',
  );
  const routes = [
    { pattern: '^/sign-in/?$', scripts: signInScripts.map((f) => `/static/${f}`), styles: [] },
    { pattern: '^/sign-in/', scripts: ['/static/screens.js'], styles: [] },
  ];
  writeFileSync(join(dist, 'route-preloads.json'), JSON.stringify({ routes }));
  return dist;
}

function budget(dist: string, kb: number): { code: number; stderr: string; signIn: string[] } {
  const json = execFileSync(process.execPath, [script, '--dist', dist, '--json'], { encoding: 'utf8' });
  try {
    execFileSync(process.execPath, [script, '--dist', dist, '--budget-kb', String(kb)], { stdio: 'pipe' });
    return { code: 0, stderr: '', signIn: JSON.parse(json).signInJs };
  } catch (error) {
    const failed = error as { status: number; stderr: Buffer };
    return { code: failed.status, stderr: failed.stderr.toString(), signIn: JSON.parse(json).signInJs };
  }
}

describe('the first-download budget', () => {
  it('passes when the page’s scripts and those /sign-in names fit', () => {
    const result = budget(build({ 'entry.js': 40, 'react.js': 60, 'contracts.js': 30, 'screens.js': 90 }, []), 150);
    expect(result).toMatchObject({ code: 0, signIn: ['static/entry.js', 'static/react.js'] });
  });

  it('fails when a script /sign-in names takes it over, though the page’s own scripts fit', () => {
    const result = budget(build({ 'entry.js': 40, 'react.js': 60, 'contracts.js': 60, 'screens.js': 10 }, ['contracts.js']), 150);
    expect(result.code).toBe(1);
    expect(result.signIn).toEqual(['static/entry.js', 'static/react.js', 'static/contracts.js']);
    expect(result.stderr).toMatch(/^\/sign-in fetches 16\d\.\d kB of JavaScript \(gzip\) before its choices show .*over its budget of 150 kB/);
  });

  it('fails when the page’s own scripts are over', () => {
    expect(budget(build({ 'entry.js': 100, 'react.js': 60, 'screens.js': 10 }, []), 150).code).toBe(1);
  });
});
