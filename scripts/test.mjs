#!/usr/bin/env node
// `npm test`: lint, type check, unit and integration tests (Vitest), the console build, then the
// end-to-end tests (Playwright). Stops at the first step that fails.
//
// QUIRE_TEST_SCOPE=database runs only the steps whose result depends on the database (the server's
// integration tests and the end-to-end tests, building the console only when its build is missing or
// stale), e.g. a second pass on PostgreSQL after a full one on PGlite. CI runs both databases through
// scripts/ci-test.mjs instead, which runs the same steps in two lanes side by side.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const scope = process.env.QUIRE_TEST_SCOPE ?? 'all';
if (!['all', 'database'].includes(scope)) {
  process.stderr.write(`QUIRE_TEST_SCOPE must be all or database, not ${scope}\n`);
  process.exit(2);
}

const steps =
  scope === 'all'
    ? [
        ['lint', npm, ['run', 'lint']],
        ['type check', npm, ['run', 'typecheck']],
        ['unit and integration tests', npm, ['run', 'test:unit']],
        ['end-to-end tests', npm, ['run', 'test:e2e']],
      ]
    : [
        ['server integration tests', npm, ['run', 'test:unit', '--', '--project', 'server']],
        ['console build (when stale)', process.execPath, [join(root, 'scripts/build-console.mjs')]],
        ['end-to-end tests', npm, ['test', '-w', 'e2e']],
      ];

for (const [name, command, args] of steps) {
  const started = Date.now();
  process.stdout.write(`\n--- ${name} ---\n`);
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  const seconds = Math.round((Date.now() - started) / 1000);
  if (run.status !== 0) {
    process.stderr.write(`npm test: ${name} failed after ${seconds} s\n`);
    process.exit(run.status ?? 1);
  }
  process.stdout.write(`--- ${name}: passed in ${seconds} s ---\n`);
}
