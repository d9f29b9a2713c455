import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

/** Path prefixes of the server's services (DESIGN.md): the dev server forwards them to the API server. */
const API_PREFIXES = ['/api', '/auth', '/payments', '/analytics', '/assets', '/graphql', '/rest', '/identity', '/docs'];
const API_TARGET = process.env.QUIRE_API_TARGET ?? 'http://localhost:3000';

// The React plugin is typed against the workspace root's Vite (Vitest's), this app builds with Vite 7.
const reactPlugin = react() as unknown as PluginOption;

export default defineConfig({
  plugins: [reactPlugin],
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
});
