#!/usr/bin/env node
// `npm start`: builds the console when its build is missing or older than its sources, then runs the
// server (TypeScript through tsx) and forwards stop signals to it so it shuts down gracefully.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'apps/web');
const builtIndex = join(web, 'dist/index.html');
// Everything the console build reads: its sources and config, and the shared core package.
const sources = [join(web, 'src'), join(web, 'public'), join(web, 'index.html'), join(web, 'vite.config.ts'), join(web, 'package.json'), join(root, 'packages/core/src')];

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

function consoleBuildIsStale() {
  if (!existsSync(builtIndex)) return 'the console has not been built yet';
  const builtAt = statSync(builtIndex).mtimeMs;
  return Math.max(...sources.map(newest)) > builtAt ? 'the console sources changed since the last build' : null;
}

const skipBuild = process.env.WEB_DIST_DIR || ['1', 'true'].includes(process.env.SKIP_WEB_BUILD ?? '') || process.argv.includes('--no-build');
const stale = skipBuild ? null : consoleBuildIsStale();
if (stale) {
  process.stdout.write(`Building the console (${stale})...\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    process.stderr.write('The console build failed (see above). Fix it, or start the APIs alone with SKIP_WEB_BUILD=true.\n');
    process.exit(1);
  }
}

// Own process group: a Ctrl-C reaches only this script, which passes it on once.
const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (server.exitCode === null) server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 1) : 1));
});
