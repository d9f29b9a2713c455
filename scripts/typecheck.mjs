#!/usr/bin/env node
// The type check: every project of the repository with TypeScript's native compiler (TypeScript 7, package alias
// `typescript-native`), which checks the same rules as the JavaScript compiler in about a third of its CPU time
// (docs/performance.md, "CI time"). The JavaScript compiler (`typescript`, 5.x) stays for the tools that read
// TypeScript through its API (typescript-eslint's parser, Vite's plugins); both install from package.json.
// The projects run one after another, and every one runs even when an earlier one fails, so one run lists every error.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')), 'bin', 'tsc');
const projects = ['packages/core', 'apps/server', 'apps/web', 'e2e', 'bench'];

let failed = 0;
for (const project of projects) {
  const { status } = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  if (status !== 0) {
    failed += 1;
    process.stderr.write(`typecheck: ${project} has type errors\n`);
  }
}
process.exit(failed ? 1 : 0);
