import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import { routePreloads, type RoutePreloadRule } from './build/route-preloads.js';
import { routePatterns } from './src/config/paths.js';

/** Path prefixes of the server's services (DESIGN.md): the dev server forwards them to the API server. */
const API_PREFIXES = ['/api', '/auth', '/payments', '/analytics', '/assets', '/graphql', '/rest', '/identity', '/docs'];
const API_TARGET = process.env.QUIRE_API_TARGET ?? 'http://localhost:3000';

// The React plugin is typed against the workspace root's Vite (Vitest's), this app builds with Vite 7.
const reactPlugin = react() as unknown as PluginOption;

/**
 * React Router 7's package exports resolve to its development build under every condition (its issues #12532, #14102:
 * dev warnings and checks in production bundles). The production build sits beside it: a build uses that one.
 */
const reactRouterEntry = createRequire(import.meta.url).resolve('react-router');
const reactRouterProduction = reactRouterEntry.replace(/([\\/])development([\\/])index\.m?js$/, '$1production$2index.mjs');

/** Mantine's `useId`, replaced in the build by src/lib/mantine/use-id.ts (which says why). */
const mantineUseId = fileURLToPath(new URL('./src/lib/mantine/use-id.ts', import.meta.url));

function mantineStableIds(): PluginOption {
  return {
    name: 'quire-mantine-stable-ids',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './use-id/use-id.mjs' && importer && /[\\/]@mantine[\\/]hooks[\\/]esm[\\/]index\.mjs$/.test(importer)) return mantineUseId;
      return null;
    },
  };
}

const coreSource = fileURLToPath(new URL('../../packages/core/src/', import.meta.url));

/**
 * A module of @quire/core that defines schemas (imports zod), or one of its indexes that the contracts are loaded
 * through; its plain helpers (constants, messages) are not, so the first download can take them alone.
 */
function isSchemaModule(id: string): boolean {
  return id.startsWith(coreSource) && (/[\\/]index\.ts$/.test(id) || /\bfrom 'zod'/.test(readFileSync(id, 'utf8')));
}

const screens = routePatterns.orgScreens;
const orgScope = 'src/app/guards/org-scope.tsx';
const contracts = '../../packages/core/src/index.ts';
/**
 * The lazy chunks each deep link needs (src/app/routes.tsx), which the server names in the page it sends
 * (build/route-preloads.ts). Every page also asks for the contracts at once (src/app/early-requests.ts).
 */
const routePreloadRules: RoutePreloadRule[] = [
  { pattern: `^${routePatterns.unsupported}(/|$)`, modules: [] },
  // /sign-in itself is in the entry chunk; it parses its first answers (configuration, sign-in methods) with the
  // contracts. The other sign-in screens are lazy.
  { pattern: `^${routePatterns.signIn.root}/?$`, modules: [contracts] },
  { pattern: `^${routePatterns.signIn.root}/`, modules: [contracts, 'src/features/auth/sign-in-screens.ts'] },
  ...(
    [
      [screens.teachers, 'src/app/teachers-screen.tsx'],
      [screens.analytics, 'src/features/analytics/index.ts'],
      [screens.portfolios, 'src/features/portfolios/index.ts'],
      [screens.resources, 'src/features/resources/index.ts'],
      [screens.admin, 'src/features/admins/index.ts'],
      [screens.lms, 'src/features/lms/index.ts'],
      [screens.apps, 'src/features/apps/index.ts'],
      [screens.imageSearch, 'src/features/image-search/index.ts'],
    ] as const
  ).map(([screen, module]) => ({ pattern: `^/[^/]+/${screen}/?$`, modules: [contracts, orgScope, module] })),
  // The organisation's home: its licences.
  { pattern: '^/[^/]+/?$', modules: [contracts, orgScope, 'src/features/licenses/index.ts'] },
];

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a Brotli (.br, best quality) and a gzip (.gz) copy beside each built script, style sheet, SVG and JSON file,
 * which the server sends as they are (@fastify/static `preCompressed`) instead of compressing them again for every
 * browser that has not cached them: once per build, not once per visit.
 */
function precompress(): PluginOption {
  let outDir = 'dist';
  return {
    name: 'quire-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) => /\.(js|css|svg|json)$/.test(f));
      await Promise.all(
        files.map(async (file) => {
          const bytes = await readFile(join(outDir, file));
          if (bytes.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
            gzipAsync(bytes, { level: 9 }),
          ]);
          await Promise.all([writeFile(join(outDir, `${file}.br`), br), writeFile(join(outDir, `${file}.gz`), gz)]);
        }),
      );
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [mantineStableIds(), reactPlugin, routePreloads(fileURLToPath(new URL('.', import.meta.url)), routePreloadRules), precompress()],
  resolve: {
    alias: command === 'build' && reactRouterProduction !== reactRouterEntry ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_TARGET, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    // Not Vite's default 'assets': /assets is the {assets} service (avatars, covers) on the same origin.
    assetsDir: 'static',
    sourcemap: true,
    rollupOptions: {
      output: {
        // Chunks under 20 kB are merged into others where no module with side effects would run earlier: the
        // Teachers screen loaded 62 scripts (most under 1 kB of Mantine helpers), each one more request and one
        // more <link rel="modulepreload"> added on the main thread; now 43, and the screen's main-thread work at
        // Lighthouse's CPU slowdown fell by a seventh to a third (docs/performance.md, "First load").
        experimentalMinChunkSize: 20_000,
        // Libraries change less often than the console: separate chunks stay cached across releases.
        manualChunks(id) {
          // zod and the schemas of @quire/core are one chunk, fetched beside the first requests (lib/api/contract.ts):
          // the first screen parses its first answers with them, and nine small chunks were nine requests before its
          // first paint.
          if (/node_modules[\\/]zod[\\/]/.test(id) || isSchemaModule(id)) return 'contracts';
          // The plain helpers (constants, messages, formats) the first download uses: left unassigned, they would
          // follow the schemas that import them into the contracts' chunk, and the first download with them.
          if (id.startsWith(coreSource)) return 'core-helpers';
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          // Mantine is not one chunk: each route's chunk carries the components it uses.
          return undefined;
        },
      },
    },
  },
}));
