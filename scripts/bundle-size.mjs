#!/usr/bin/env node
// Prints what the built console (apps/web/dist) makes a browser download: the initial JavaScript and CSS
// that every route loads before it shows anything (raw and gzip), what a deep link's page names beside them
// (dist/route-preloads.json), then each lazily loaded chunk.
// Run after `npm run build`: `node scripts/bundle-size.mjs` (`--json` for a machine-readable line; `--budget-kb 150`
// also fails, exit code 1, when the initial JavaScript is over that many kB gzip: CI runs it after the build).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps/web/dist');
if (!existsSync(join(dist, 'index.html'))) {
  process.stderr.write('No console build: run `npm run build` first.\n');
  process.exit(1);
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const size = (file) => {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const referenced = (pattern) => [...html.matchAll(pattern)].map((m) => m[1].replace(/^\//, ''));
const initialJs = referenced(/<script[^>]+src="([^"]+\.js)"/g).concat(referenced(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)).map(size);
const initialCss = referenced(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+\.css)"/g).map(size);
const initial = new Set([...initialJs, ...initialCss].map((f) => f.file));
const lazy = readdirSync(join(dist, 'static'))
  .filter((f) => /\.(js|css)$/.test(f))
  .map((f) => `static/${f}`)
  .filter((f) => !initial.has(f))
  .map(size)
  .sort((a, b) => b.gzip - a.gzip);

const preloadsFile = join(dist, 'route-preloads.json');
const routes = existsSync(preloadsFile)
  ? JSON.parse(readFileSync(preloadsFile, 'utf8')).routes.map((route) => {
      const files = [...route.scripts, ...route.styles].map((href) => size(href.replace(/^\//, '')));
      return { pattern: route.pattern, files: files.length, gzip: files.reduce((sum, f) => sum + f.gzip, 0) };
    })
  : [];

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const total = (files, key) => files.reduce((sum, f) => sum + f[key], 0);
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ initialJsGzip: total(initialJs, 'gzip'), initialCssRaw: total(initialCss, 'raw'), initialCssGzip: total(initialCss, 'gzip'), routes, lazy })}\n`);
} else {
  const line = (f) => `  ${f.file.padEnd(44)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(10)} gzip`;
  process.stdout.write(`Initial JavaScript (every route, before anything shows): ${kb(total(initialJs, 'gzip'))} gzip\n`);
  initialJs.forEach((f) => process.stdout.write(`${line(f)}\n`));
  process.stdout.write(`Initial CSS: ${kb(total(initialCss, 'raw'))} raw, ${kb(total(initialCss, 'gzip'))} gzip\n`);
  initialCss.forEach((f) => process.stdout.write(`${line(f)}\n`));
  process.stdout.write('Named in a deep link\'s page besides (route-preloads.json: scripts and style sheets of its screen):\n');
  routes.forEach((r) => process.stdout.write(`  ${r.pattern.padEnd(44)} ${String(r.files).padStart(4)} files ${kb(r.gzip).padStart(10)} gzip\n`));
  process.stdout.write('Loaded on navigation:\n');
  lazy.forEach((f) => process.stdout.write(`${line(f)}\n`));
}

const budgetAt = process.argv.indexOf('--budget-kb');
if (budgetAt !== -1) {
  const budget = Number(process.argv[budgetAt + 1]);
  const initialKb = total(initialJs, 'gzip') / 1024;
  if (!(initialKb <= budget)) {
    process.stderr.write(`The first download is ${initialKb.toFixed(1)} kB of JavaScript (gzip), over its budget of ${budget} kB (docs/performance.md, "First load").\n`);
    process.exitCode = 1;
  }
}
