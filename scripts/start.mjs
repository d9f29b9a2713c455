#!/usr/bin/env node
// `npm start`: builds the console when its build is missing or older than its sources, then runs the
// server (TypeScript through tsx) and forwards stop signals to it so it shuts down gracefully.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsoleIfStale } from './build-console.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const skipBuild = process.env.WEB_DIST_DIR || ['1', 'true'].includes(process.env.SKIP_WEB_BUILD ?? '') || process.argv.includes('--no-build');
if (!skipBuild && !buildConsoleIfStale()) {
  process.stderr.write('The console build failed (see above). Fix it, or start the APIs alone with SKIP_WEB_BUILD=true.\n');
  process.exit(1);
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
