/**
 * Teachers screen benchmark: time from navigation to the first page of rows, in Chromium, on an
 * organisation of 100,000 teachers. Seeds the demo district into its own PostgreSQL database with
 * `npm run seed -- --teachers N` (the main organisation gets the N teachers), starts the real server
 * with the built console, signs the demo admin in through the screens, then measures:
 *  - a full page load of /{orgId}/teachers (HTML, scripts, session, organisation, first page);
 *  - moving from Home to Teachers with the navigation (the console already loaded);
 *  - a search typed into the box until the matching rows show (debounce included).
 * Prints the figures recorded in docs/performance.md ("Teachers screen in the browser").
 *
 *   npm run build -w apps/web
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres npx tsx bench/teachers-screen.bench.ts [--teachers N] [--runs N] [--keep]
 *
 * BENCH_DATABASE_URL is an admin URL: the benchmark creates its own database (quire_bench_screen) and drops
 * it afterwards unless --keep (then a second run with --reuse skips seeding).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { signInThroughScreens } from './sign-in.js';
import { adminQuery, databaseUrl } from './load.js';

const { values } = parseArgs({
  options: {
    teachers: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '15' },
    port: { type: 'string', default: '3810' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});
const TEACHERS = Number(values.teachers);
const RUNS = Number(values.runs);
const PORT = Number(values.port);
const BASE = `http://localhost:${PORT}`;
const DB_NAME = 'quire_bench_screen';
const ROOT = resolve(import.meta.dirname, '..');
const DIST = resolve(ROOT, process.env.WEB_DIST_DIR ?? 'apps/web/dist');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5433/postgres';
const benchDatabaseUrl = databaseUrl(adminUrl, DB_NAME);
const ADMIN = { email: 'admin@demo.quire.school', password: 'quire-demo-1' };
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const admin = async (statement: string) => void (await adminQuery(adminUrl, statement));

function run(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
}

function finished(child: ChildProcess): Promise<void> {
  return new Promise((done, fail) => child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`exit ${code}`)))));
}

async function waitForServer(): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${BASE}/readyz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not become ready');
}

function summary(label: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  return `${label.padEnd(44)} p50 ${Math.round(at(50))} ms, p95 ${Math.round(at(95))} ms, min ${Math.round(sorted[0] ?? NaN)} ms (${ms.length} runs)`;
}

/** Milliseconds from `start()` until the table's first data row (of the expected page) is visible. */
async function timeToRows(page: Page, start: () => Promise<unknown>, firstEmail?: string): Promise<number> {
  const began = performance.now();
  await start();
  const row = page.locator('table[aria-label="Active teachers"] tbody tr').first();
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  if (firstEmail) await page.locator('table[aria-label="Active teachers"] tbody tr td', { hasText: firstEmail }).first().waitFor({ timeout: 60_000 });
  return performance.now() - began;
}

async function main(): Promise<void> {
  if (!existsSync(resolve(DIST, 'index.html'))) throw new Error(`No built console at ${DIST}: run npm run build -w apps/web first`);
  const env = { DATABASE_URL: benchDatabaseUrl, NODE_ENV: 'development', DEMO_SEED: 'false', LOG_LEVEL: 'warn', PORT: String(PORT), WEB_DIST_DIR: DIST };
  if (!values.reuse) {
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME}`);
    await admin(`CREATE DATABASE ${DB_NAME}`);
    const seeding = performance.now();
    await finished(run('npm', ['run', 'seed', '--', '--teachers', String(TEACHERS)], env));
    console.log(`Seeded ${TEACHERS} teachers in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  }
  const server = run('node', ['--import', 'tsx', 'apps/server/src/server.ts'], env);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    await waitForServer();
    const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const organisations = await signInThroughScreens(page, BASE, ADMIN.email, ADMIN.password);

    // The organisation with the generated teachers is the biggest one.
    let biggest = { id: '', name: '', total: -1 };
    for (const o of organisations) {
      const answer = await page.request.get(`/payments/v1/admin/organisations/${o.id}/members/teachers?page=1&pageSize=10`);
      const { total } = (await answer.json()) as { total: number };
      if (total > biggest.total) biggest = { ...o, total };
    }
    console.log(`Organisation: ${biggest.name}, ${biggest.total} active teachers; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const teachersPath = `/${biggest.id}/teachers`;
    const homePath = `/${biggest.id}`;

    const fullLoads: number[] = [];
    const navigations: number[] = [];
    const searches: number[] = [];
    // One warm-up of each, not counted: the first compile of the chunks.
    await timeToRows(page, () => page.goto(teachersPath));
    for (let i = 0; i < RUNS; i += 1) {
      fullLoads.push(await timeToRows(page, () => page.goto(teachersPath)));
    }
    for (let i = 0; i < RUNS; i += 1) {
      await page.goto(homePath);
      await page.getByRole('heading', { level: 1, name: 'Licenses' }).waitFor();
      navigations.push(await timeToRows(page, () => page.getByRole('navigation').getByRole('link', { name: 'Teachers' }).click()));
    }
    const terms = ['smith', 'ann', 'lee', 'garcia', 'morgan', 'taylor', 'brooks', 'reed', 'wright', 'young'];
    for (let i = 0; i < RUNS; i += 1) {
      const term = terms[i % terms.length] ?? 'smith';
      await page.goto(teachersPath);
      await page.locator('table[aria-label="Active teachers"] tbody tr').first().waitFor();
      const answer = await page.request.get(`/payments/v1/admin/organisations/${biggest.id}/members/teachers?page=1&pageSize=10&search=${term}`);
      const first = ((await answer.json()) as { members: Array<{ email: string }> }).members[0]?.email;
      if (!first) continue;
      searches.push(await timeToRows(page, () => page.getByRole('searchbox', { name: 'Search teachers' }).fill(term), first));
    }
    // The two calls the screen waits for, alone (same session), to tell the server's share from the browser's.
    const listCalls: number[] = [];
    const organisationCalls: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      let began = performance.now();
      await page.request.get(`/payments/v1/admin/organisations/${biggest.id}/members/teachers?sort=email&dir=asc&page=1&pageSize=10`);
      listCalls.push(performance.now() - began);
      began = performance.now();
      await page.request.post('/graphql', {
        headers: { origin: BASE },
        data: {
          query: 'query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { id isDomain features { orgLibraries } licenses { id allocated } admins { email } } }',
          variables: { id: biggest.id },
        },
      });
      organisationCalls.push(performance.now() - began);
    }
    console.log(summary('API: first page of teachers', listCalls));
    console.log(summary('API: organisation with licences and admins', organisationCalls));
    console.log(summary('full page load to first rows', fullLoads));
    console.log(summary('Home → Teachers (navigation) to first rows', navigations));
    console.log(summary('search typed to matching rows (300 ms debounce)', searches));
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    if (!values.keep) await admin(`DROP DATABASE IF EXISTS ${DB_NAME}`).catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
