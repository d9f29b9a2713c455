#!/usr/bin/env node
// Prints what the built console (apps/web/dist) makes a browser download: the initial JavaScript and CSS
// that every route loads before it shows anything (raw and gzip), what /sign-in fetches before its sign-in choices
// show (that JavaScript and the scripts its page names), what a deep link's page names beside them
// (dist/route-preloads.json), then each lazily loaded chunk.
// Run after `npm run build`: `node scripts/bundle-size.mjs` (`--json` for a machine-readable line; `--budget-kb 150`
// also fails, exit code 1, when the JavaScript /sign-in fetches before its choices show is over that many kB gzip: CI
// runs it after the build; `--dist <folder>` measures another build).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const distAt = process.argv.indexOf('--dist');
const dist = distAt === -1 ? join(dirname(fileURLToPath(import.meta.url)), '..', 'apps/web/dist') : process.argv[distAt + 1];
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
const preloadRoutes = existsSync(preloadsFile) ? JSON.parse(readFileSync(preloadsFile, 'utf8')).routes : [];
const routes = preloadRoutes.map((route) => {
  const files = [...route.scripts, ...route.styles].map((href) => size(href.replace(/^\//, '')));
  return { pattern: route.pattern, files: files.length, gzip: files.reduce((sum, f) => sum + f.gzip, 0) };
});

// What /sign-in fetches before its choices show: the page's scripts, and those the server names in it for /sign-in
// (the first pattern that matches, as apps/server/src/plugins/web-console.ts picks it). The sign-in screen is in the
// entry and parses its first answers with the schemas of the first download; e2e/tests/route-preloads.spec.ts checks
// in Chromium that these are the scripts requested before the choices are on screen.
const signInRoute = preloadRoutes.find((route) => new RegExp(route.pattern).test('/sign-in'));
const signInJs = [...initialJs, ...(signInRoute?.scripts ?? []).map((href) => size(href.replace(/^\//, ''))).filter((f) => !initial.has(f.file))];

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const total = (files, key) => files.reduce((sum, f) => sum + f[key], 0);
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ initialJsGzip: total(initialJs, 'gzip'), signInJsGzip: total(signInJs, 'gzip'), signInJs: signInJs.map((f) => f.file), initialCssRaw: total(initialCss, 'raw'), initialCssGzip: total(initialCss, 'gzip'), routes, lazy })}\n`);
} else {
  const line = (f) => `  ${f.file.padEnd(44)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(10)} gzip`;
  process.stdout.write(`Initial JavaScript (every route, before anything shows): ${kb(total(initialJs, 'gzip'))} gzip\n`);
  initialJs.forEach((f) => process.stdout.write(`${line(f)}\n`));
  process.stdout.write(`/sign-in, JavaScript fetched before its choices show: ${kb(total(signInJs, 'gzip'))} gzip in ${signInJs.length} files${signInJs.length > initialJs.length ? ' (the initial JavaScript and the scripts its page names)' : ' (the initial JavaScript)'}\n`);
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
  const signInKb = total(signInJs, 'gzip') / 1024;
  if (!(signInKb <= budget)) {
    process.stderr.write(
      `/sign-in fetches ${signInKb.toFixed(1)} kB of JavaScript (gzip) before its choices show (${signInJs.map((f) => f.file).join(', ')}), over its budget of ${budget} kB (docs/performance.md, "First load").\n`,
    );
    process.exitCode = 1;
  }
}
