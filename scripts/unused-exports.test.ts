import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The unused-export check of `npm run lint` (knip, configured in knip.jsonc) refuses what it is meant to: it runs
 * the repository's knip, with the issue types of knip.jsonc, in both modes lint runs it in, on a small workspace with
 * an export nothing imports, one only its file uses, one only a test imports and one a test imports on purpose
 * (`@internal`), and on the same workspace without the faults.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const knip = join(root, 'node_modules', 'knip', 'bin', 'knip.js');
const config = JSON.parse(stripComments(readFileSync(join(root, 'knip.jsonc'), 'utf8'))) as { include: string[] };
const workspaces = mkdtempSync(join(tmpdir(), 'quire-knip-'));
afterAll(() => rmSync(workspaces, { recursive: true, force: true }));

function stripComments(jsonc: string): string {
  return jsonc.replace(/^\s*\/\/.*$/gm, '');
}

/** A workspace as the repository's are set up: production files marked with `!`, Vitest tests beside them. */
function workspace(name: string, files: Record<string, string>): string {
  const dir = join(workspaces, name);
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name, private: true, type: 'module', devDependencies: { vitest: '*' } }),
    'knip.json': JSON.stringify({ include: config.include, entry: ['src/main.ts!'], project: ['src/**/*.ts!', '!src/**/*.test.ts!'] }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** What knip reports, as `file: name` per unused export, and whether it failed (lint stops on a failure). */
function check(dir: string, mode: 'default' | 'production') {
  const args = [knip, '--directory', dir, '--reporter', 'json', '--no-progress', '--no-config-hints'];
  if (mode === 'production') args.push('--production');
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const report = JSON.parse(run.stdout) as { issues: { file: string; exports?: { name: string }[] }[] };
  const findings = report.issues.flatMap((issue) => (issue.exports ?? []).map((e) => `${issue.file}: ${e.name}`)).sort();
  return { failed: run.status !== 0, findings };
}

const faulty = workspace('faulty', {
  'src/main.ts': "import { shown } from './rules.js';\n\nconsole.log(shown());\n",
  'src/rules.ts': [
    'export const unused = 1;',
    'export const onlyInFile = 2;',
    'export const onlyTests = 3;',
    '/** Checked by its test on purpose. @internal */',
    'export const testedOnPurpose = 4;',
    'export const shown = () => onlyInFile + testedOnPurpose;',
    '',
  ].join('\n'),
  'src/rules.test.ts': "import { expect, it } from 'vitest';\nimport { onlyTests, testedOnPurpose } from './rules.js';\n\nit('adds', () => expect(onlyTests + testedOnPurpose).toBe(7));\n",
});

const clean = workspace('clean', {
  'src/main.ts': "import { shown } from './rules.js';\n\nconsole.log(shown());\n",
  'src/rules.ts': [
    'const onlyInFile = 2;',
    '/** Checked by its test on purpose. @internal */',
    'export const testedOnPurpose = 4;',
    'export const shown = () => onlyInFile + testedOnPurpose;',
    '',
  ].join('\n'),
  'src/rules.test.ts': "import { expect, it } from 'vitest';\nimport { shown, testedOnPurpose } from './rules.js';\n\nit('adds', () => expect(shown() + testedOnPurpose).toBe(10));\n",
});

describe('unused-export check', { timeout: 60_000 }, () => {
  it('refuses an export nothing imports and one only its own file uses', () => {
    expect(check(faulty, 'default')).toEqual({ failed: true, findings: ['src/rules.ts: onlyInFile', 'src/rules.ts: unused'] });
  });

  it('refuses, in production mode, an export only a test imports unless it is marked @internal', () => {
    expect(check(faulty, 'production')).toEqual({
      failed: true,
      findings: ['src/rules.ts: onlyInFile', 'src/rules.ts: onlyTests', 'src/rules.ts: unused'],
    });
  });

  it('passes the same workspace without those exports, in both modes', () => {
    expect(check(clean, 'default')).toEqual({ failed: false, findings: [] });
    expect(check(clean, 'production')).toEqual({ failed: false, findings: [] });
  });
});
