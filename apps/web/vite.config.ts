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

/**
 * React Router's build defines its components at the top level as `var Form = React10.forwardRef(…)` without the
 * `@__PURE__` mark its other definitions carry, so rollup keeps every one of them, and what they use, in the first
 * download although the console renders few (Form, NavLink, their submission helpers). The mark is added to those
 * top-level `forwardRef`, `memo` and `createContext` calls: React's own, which have no side effects.
 */
function reactRouterPureComponents(): PluginOption {
  return {
    name: 'quire-react-router-pure-components',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-[\w-]+\.mjs$/.test(id)) return null;
      const marked = code
        .replace(/^(var \w+ = )(React\d*\.(?:forwardRef|memo|createContext)\()/gm, '$1/* @__PURE__ */ $2')
        .replace(/^\w+\.displayName = "[\w.]+";$/gm, '');
      return { code: marked, map: null };
    },
  };
}

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
 * The modules of @quire/core the first download uses: the constants and texts the entry imports, and the schemas of the
 * answers /sign-in parses before it shows its choices, written with zod/mini (`from 'zod/mini'`). Every other module of
 * @quire/core comes with the contracts' chunk; should the entry import one, the build fails (firstDownloadCheck).
 */
function isFirstDownloadCoreModule(id: string): boolean {
  if (!id.startsWith(coreSource)) return false;
  return /[\\/](constants|messages)\.ts$/.test(id) || /\bfrom 'zod\/mini'/.test(readFileSync(id, 'utf8'));
}

/** The id suffix of zod/mini's own copy of zod's core (zodMiniCopy). */
const ZOD_MINI_COPY = '?zod-mini-copy';

/**
 * zod/mini and zod's classic build share zod's core modules. In one copy, those modules would hold everything the
 * classic build uses and land in the first download with the zod/mini schemas (about 20 kB gzip). So the build gives
 * zod/mini a copy of its own (the same files under other ids), from which rollup keeps only what the zod/mini schemas
 * use; the classic build keeps its copy in the contracts' chunk. The two copies share zod's settings
 * (`globalThis.__zod_globalConfig`, lib/zod-config.ts) and its global registry, and each schema parses with its own.
 */
function zodMiniCopy(): PluginOption {
  return {
    name: 'quire-zod-mini-copy',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      const inCopy = importer?.endsWith(ZOD_MINI_COPY) ?? false;
      if (source !== 'zod/mini' && !inCopy) return null;
      const from = inCopy && importer ? importer.slice(0, -ZOD_MINI_COPY.length) : importer;
      const resolved = await this.resolve(source, from, { skipSelf: true });
      if (!resolved || resolved.external || resolved.id.endsWith(ZOD_MINI_COPY)) return resolved;
      return { ...resolved, id: `${resolved.id}${ZOD_MINI_COPY}` };
    },
  };
}

/**
 * Fails the build when the first download (the entry and the chunks it imports) imports the contracts' chunk: zod's
 * classic build and every schema would then load before any screen shows (docs/performance-log.md, "First load").
 */
function firstDownloadCheck(): PluginOption {
  return {
    name: 'quire-first-download-check',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const first = new Set(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
      for (const file of first) for (const imported of byFile.get(file)?.imports ?? []) first.add(imported);
      const contracts = [...first].filter((file) => byFile.get(file)?.name === 'contracts');
      if (contracts.length > 0) {
        this.error(`The first download imports ${contracts.join(', ')}: a module of the entry uses a zod schema or a module of @quire/core that is not in isFirstDownloadCoreModule (vite.config.ts).`);
      }
    },
  };
}

const screens = routePatterns.orgScreens;
const orgScope = 'src/app/guards/org-scope.tsx';
const contracts = '../../packages/core/src/index.ts';
/**
 * The lazy chunks each deep link needs (src/app/routes.tsx), which the server names in the page it sends
 * (build/route-preloads.ts). Every page but /sign-in also asks for the contracts at once (src/app/early-requests.ts).
 */
const routePreloadRules: RoutePreloadRule[] = [
  { pattern: `^${routePatterns.unsupported}(/|$)`, modules: ['src/features/unsupported/index.ts'] },
  // /sign-in itself is in the entry chunk, with the zod/mini schemas of its first answers (configuration, session,
  // sign-in methods): it names nothing. The other sign-in screens are lazy.
  { pattern: `^${routePatterns.signIn.root}/?$`, modules: [] },
  { pattern: `^${routePatterns.signIn.root}/`, modules: [contracts, 'src/features/identity/sign-in-screens.ts'] },
  ...(
    [
      [screens.teachers, 'src/app/teachers-screen.tsx'],
      [screens.analytics, 'src/features/analytics/index.ts'],
      [screens.portfolios, 'src/features/portfolios/index.ts'],
      [screens.resources, 'src/features/resources/index.ts'],
      [screens.admin, 'src/features/admins/index.ts'],
      [screens.lms, 'src/features/lti/index.ts'],
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
  plugins: [zodMiniCopy(), reactRouterPureComponents(), mantineStableIds(), reactPlugin, routePreloads(fileURLToPath(new URL('.', import.meta.url)), routePreloadRules), firstDownloadCheck(), precompress()],
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
        // Lighthouse's CPU slowdown fell by a seventh to a third (docs/performance-log.md, "First load").
        experimentalMinChunkSize: 20_000,
        // Libraries change less often than the console: separate chunks stay cached across releases.
        manualChunks(id) {
          // What the first download takes of @quire/core (constants, texts, the zod/mini schemas of /sign-in's first
          // answers) and zod/mini's copy of zod's core: left unassigned, the helpers would follow the schemas that
          // import them into the contracts' chunk, and that chunk into the first download.
          if (id.endsWith(ZOD_MINI_COPY) || isFirstDownloadCoreModule(id)) return 'core-helpers';
          // zod's classic build and the rest of @quire/core are one chunk, loaded with the first answer that needs it
          // (lib/api/contract.ts) or named in a signed-in deep link's page: nine small chunks were nine requests.
          if (/node_modules[\\/]zod[\\/]/.test(id) || id.startsWith(coreSource)) return 'contracts';
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          // Mantine is not one chunk: each route's chunk carries the components it uses.
          return undefined;
        },
      },
    },
  },
}));
