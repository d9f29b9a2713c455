/**
 * Lighthouse (mobile preset: a mid-range phone on a slow 4G line, simulated) on /sign-in and on the
 * Teachers screen signed in, against a running console. Prints each category's score and the timings
 * recorded in docs/performance.md ("First load").
 *
 *   npm start            (in another shell; or any running Quire with the demo district)
 *   npx tsx bench/lighthouse.bench.ts [--url http://localhost:3000] [--runs 3] [--save folder]
 *
 * Lighthouse is not a dependency of the project (it would add 200 packages to every install): the script
 * runs it with `npx --yes lighthouse@12` (Lighthouse 12 runs on Node 20; 13 needs Node 22), which fetches it
 * once from the npm registry. It drives Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium),
 * signed in through the screens first, so the signed-in audit sees what an admin sees.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { signInThroughScreens } from './sign-in.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:3000' },
    runs: { type: 'string', default: '3' },
    /** A folder to keep each run's full JSON report in (what the printed figures come from). */
    save: { type: 'string' },
    email: { type: 'string', default: process.env.DEMO_ADMIN_EMAIL ?? 'admin@demo.quire.school' },
    password: { type: 'string', default: process.env.DEMO_ADMIN_PASSWORD ?? 'quire-demo-1' },
  },
});
const BASE = values.url.replace(/\/$/, '');
const RUNS = Number(values.runs);
const DEBUG_PORT = 9333;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface Report {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; displayValue?: string; score: number | null }>;
}

function lighthouse(url: string, keepSession: boolean): Promise<Report> {
  const args = [
    '--yes',
    'lighthouse@12.8.2',
    url,
    `--port=${DEBUG_PORT}`,
    '--only-categories=performance,accessibility,best-practices',
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    // Lighthouse clears the origin's storage before a run; the signed-in audit needs its session.
    ...(keepSession ? ['--disable-storage-reset'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Report) : reject(new Error(`lighthouse exited with ${code}`))));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function audit(label: string, url: string, keepSession = false): Promise<void> {
  const reports: Report[] = [];
  for (let i = 0; i < RUNS; i += 1) reports.push(await lighthouse(url, keepSession));
  if (values.save) {
    mkdirSync(values.save, { recursive: true });
    reports.forEach((r, i) => writeFileSync(join(values.save!, `${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}-${i + 1}.json`), JSON.stringify(r)));
  }
  const score = (r: Report, c: string) => Math.round((r.categories[c]?.score ?? 0) * 100);
  const ms = (r: Report, a: string) => r.audits[a]?.numericValue ?? NaN;
  console.log(`\n${label} (${url}), ${RUNS} runs, median [each run]`);
  for (const c of ['performance', 'accessibility', 'best-practices']) {
    const all = reports.map((r) => score(r, c));
    console.log(`  ${c.padEnd(34)} ${String(median(all)).padStart(6)}   [${all.join(' ')}]`);
  }
  for (const a of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'speed-index', 'cumulative-layout-shift']) {
    const all = reports.map((r) => ms(r, a));
    const show = (v: number) => (a === 'cumulative-layout-shift' ? v.toFixed(3) : `${Math.round(v)} ms`);
    console.log(`  ${a.padEnd(34)} ${show(median(all)).padStart(6)}   [${all.map(show).join(' ')}]`);
  }
  for (const r of reports.slice(0, 1)) {
    // Where the main thread's time went (Lighthouse's own breakdown), and the scripts that cost the most.
    const items = (id: string) => ((r.audits[id] as { details?: { items?: Array<Record<string, unknown>> } }).details?.items ?? []);
    const work = items('mainthread-work-breakdown').map((i) => `${String(i.groupLabel ?? i.group)} ${Math.round(Number(i.duration))} ms`);
    console.log(`  main thread: ${work.join(', ')}`);
    for (const i of items('bootup-time').slice(0, 5)) {
      console.log(`  script ${String(i.url).replace(BASE, '')}: evaluation ${Math.round(Number(i.scripting))} ms, parse ${Math.round(Number(i.scriptParseCompile))} ms`);
    }
    const failing = Object.entries(r.audits).filter(([, v]) => v.score !== null && v.score < 0.9 && v.displayValue);
    for (const [id, v] of failing) console.log(`  below 90: ${id} ${v.displayValue ?? ''}`);
  }
}

async function main(): Promise<void> {
  console.log(`Load average at start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  // A persistent context is the browser's default one: the tabs Lighthouse opens share its cookies.
  const profile = mkdtempSync(join(tmpdir(), 'quire-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${DEBUG_PORT}`],
    baseURL: BASE,
  });
  try {
    await audit('Sign-in, signed out', `${BASE}/sign-in`);

    const [first] = await signInThroughScreens(await context.newPage(), BASE, values.email, values.password);
    await audit(`Teachers screen, signed in (${first.name})`, `${BASE}/${encodeURIComponent(first.id)}/teachers`, true);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`\nLoad average at end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
