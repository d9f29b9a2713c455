import { createRequire } from 'node:module';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

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

export default defineConfig(({ command }) => ({
  plugins: [reactPlugin],
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
        // Libraries change less often than the console: separate chunks stay cached across releases.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          // Mantine is not one chunk: each route's chunk carries the components it uses.
          return undefined;
        },
      },
    },
  },
}));
