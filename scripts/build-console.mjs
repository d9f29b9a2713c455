#!/usr/bin/env node
// Builds the console (apps/web/dist) when its build is missing or older than its sources.
// Used by `npm start` and by `QUIRE_TEST_SCOPE=database npm test`; run directly it builds when stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'apps/web');
const builtIndex = join(web, 'dist/index.html');
// Everything the console build reads: its sources and config, and the shared core package.
const sources = [join(web, 'src'), join(web, 'public'), join(web, 'index.html'), join(web, 'vite.config.ts'), join(web, 'build'), join(web, 'package.json'), join(root, 'packages/core/src')];

/** Newest modification time under a file or folder (0 when missing). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/** Why the console needs a build, or null when its build is current. */
export function consoleBuildIsStale() {
  if (!existsSync(builtIndex)) return 'the console has not been built yet';
  const builtAt = statSync(builtIndex).mtimeMs;
  return Math.max(...sources.map(newest)) > builtAt ? 'the console sources changed since the last build' : null;
}

/** Builds the console when stale; returns false when the build failed. */
export function buildConsoleIfStale() {
  const stale = consoleBuildIsStale();
  if (!stale) return true;
  process.stdout.write(`Building the console (${stale})...\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return spawnSync(npm, ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' }).status === 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!buildConsoleIfStale()) {
    process.stderr.write('The console build failed (see above).\n');
    process.exit(1);
  }
  if (!consoleBuildIsStale()) process.stdout.write('The console build is current.\n');
}
