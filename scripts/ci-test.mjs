#!/usr/bin/env node
// CI's test run (.ci/run): everything `npm test` runs, on PGlite and on PostgreSQL, in one overlapping plan.
//
// `npm test` runs its steps one after another for one database. This runs the same steps as jobs in two
// lanes side by side (the plan below), so the unit tests use the core the checks and the first end-to-end
// pass leave: the steps that do not depend on the database once, the ones that do on each database. Each
// end-to-end pass has its own data folder, results folder and ports (they could run at the same time
// without colliding). Every job runs even when another fails; each line of output is prefixed with its
// job's name; the summary gives each job's result and time, and the result on each database. Exit status 1
// when any job failed.
//
// Usage: TEST_DATABASE_URL=postgres://… node scripts/ci-test.mjs
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  process.stderr.write('ci-test: set TEST_DATABASE_URL to a PostgreSQL admin URL (the PostgreSQL pass runs there)\n');
  process.exit(2);
}

const pglite = { TEST_DATABASE_URL: undefined, DATABASE_URL: undefined };
const postgres = { TEST_DATABASE_URL: postgresUrl, DATABASE_URL: undefined };
/** Each end-to-end pass gets its own data folder, results folder and port ranges (e2e/README.md). */
const e2ePass = (name, ports, peerPorts) => ({
  E2E_DATA_DIR: `.data/${name}`,
  E2E_OUTPUT_DIR: `test-results/${name}`,
  E2E_PORT_RANGE: ports,
  E2E_PEER_PORT_RANGE: peerPorts,
});

/**
 * The plan: two lanes that run side by side. The end-to-end suite keeps both cores busy on its own (the
 * browser, axe and the server share them: docs/performance-log.md), so the two end-to-end passes run one after
 * the other, and the unit tests (about one core) overlap them. The end-to-end passes are the longer lane, so
 * it starts with the build alone (the build does not need the type check: Vite strips types) and the type
 * check runs in the other lane.
 *   lane 1: console build (→ first-download budget) → end-to-end (PGlite) → end-to-end (PostgreSQL, desktop width, and
 *           the proxied flows: three copies behind HAProxy, docs/scale-out.md)
 *   lane 2: lint → type check → unit and integration tests (PGlite) → server integration tests (PostgreSQL)
 * The phone project (the same specs at 390 px) runs in the PGlite pass only: what it adds to the desktop run is the
 * layout at phone width, which does not depend on the database; every spec still runs on both databases. For the same
 * reason the PostgreSQL pass runs without the accessibility checks (axe and the checks beyond it: E2E_ACCESSIBILITY=off),
 * which read the page, not the database behind it. In the same
 * way the server's test files that open no database (project server-no-database, root vitest.config.ts) run in the
 * PGlite lane only; every server file that opens one runs on both.
 * `database` says which database's result a job counts towards (`both`: it does not depend on the database,
 * so it runs once and counts for both). `after` lists jobs that must have finished first, whatever their
 * result; `needs` lists jobs that must have passed (otherwise the job is not run and counts as failed).
 */
const jobs = [
  { name: 'console build', database: 'both', command: [npm, 'run', 'build'] },
  // The first download's budget: the JavaScript /sign-in fetches before its choices show, ≤ 150 kB gzip (docs/performance.md,
  // "First load"). A change that pulls a library or the contracts' chunk into it fails here.
  { name: 'first-download budget', database: 'both', needs: ['console build'], command: [process.execPath, 'scripts/bundle-size.mjs', '--budget-kb', '150'] },
  {
    name: 'end-to-end tests (PGlite)',
    database: 'pglite',
    needs: ['console build'],
    command: [npm, 'test', '-w', 'e2e'],
    env: { ...pglite, ...e2ePass('pglite', '3300-3349', '3600-3649') },
  },
  {
    name: 'end-to-end tests (PostgreSQL)',
    database: 'postgresql',
    needs: ['console build'],
    after: ['end-to-end tests (PGlite)'],
    // With the proxied flows: three copies of the server behind HAProxy on this database (e2e/tests/proxy).
    command: [npm, 'test', '-w', 'e2e', '--', '--project', 'chromium', '--project', 'proxy'],
    // Without the accessibility checks: they read the page, not the database, and the PGlite pass makes every one.
    env: { ...postgres, ...e2ePass('postgresql', '3350-3399', '3650-3699'), E2E_ACCESSIBILITY: 'off' },
  },
  { name: 'lint', database: 'both', command: [npm, 'run', 'lint'] },
  { name: 'type check', database: 'both', after: ['lint'], command: [npm, 'run', 'typecheck'] },
  { name: 'unit and integration tests (PGlite)', database: 'pglite', after: ['type check'], command: [npm, 'run', 'test:unit'], env: pglite },
  {
    name: 'server integration tests (PostgreSQL)',
    database: 'postgresql',
    after: ['unit and integration tests (PGlite)'],
    command: [npm, 'run', 'test:unit', '--', '--project', 'server'],
    env: postgres,
  },
];

const startedAt = Date.now();
const clock = () => {
  const s = Math.round((Date.now() - startedAt) / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};
const say = (line) => process.stdout.write(`[${clock()}] ${line}\n`);

/** name → { status: 'passed' | 'FAILED' | 'not run', seconds } */
const results = new Map();
const running = new Map();

function run(job) {
  const env = { ...process.env };
  for (const [key, value] of Object.entries(job.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const begun = Date.now();
  say(`start: ${job.name}`);
  const child = spawn(job.command[0], job.command.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${job.name}] ${line}\n`));
  }
  return new Promise((done) => {
    child.on('error', (error) => process.stdout.write(`[${job.name}] ${error.message}\n`));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - begun) / 1000);
      const status = code === 0 ? 'passed' : 'FAILED';
      results.set(job.name, { status, seconds });
      say(`${status}: ${job.name} in ${seconds} s`);
      done();
    });
  });
}

/** Starts every job whose prerequisites are done; a job whose `needs` did not pass is not run. */
function startReady() {
  for (const job of jobs) {
    if (results.has(job.name) || running.has(job.name)) continue;
    const needs = job.needs ?? [];
    const failed = needs.filter((name) => results.has(name) && results.get(name).status !== 'passed');
    if (failed.length) {
      results.set(job.name, { status: 'not run', seconds: 0 });
      say(`not run: ${job.name} (${failed.join(', ')} did not pass)`);
      continue;
    }
    if ([...needs, ...(job.after ?? [])].every((name) => results.has(name))) {
      running.set(
        job.name,
        run(job).then(() => {
          running.delete(job.name);
          startReady();
        }),
      );
    }
  }
}

startReady();
while (running.size > 0) await Promise.race(running.values());

process.stdout.write('\n');
for (const job of jobs) {
  const { status, seconds } = results.get(job.name) ?? { status: 'not run', seconds: 0 };
  process.stdout.write(`${status.padEnd(8)} ${String(seconds).padStart(5)} s  ${job.name}\n`);
}
const verdict = (database) =>
  jobs.filter((j) => j.database === database || j.database === 'both').every((j) => results.get(j.name)?.status === 'passed') ? 'passed' : 'FAILED';
process.stdout.write(`\nPGlite:     ${verdict('pglite')}\nPostgreSQL: ${verdict('postgresql')}\nAll jobs in ${clock()}\n`);
process.exit(verdict('pglite') === 'passed' && verdict('postgresql') === 'passed' ? 0 : 1);
