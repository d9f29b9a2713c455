import { defineConfig } from 'vitest/config';

// One runner for every unit and integration test: core rules, server (through app.inject), web components.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', root: 'packages/core', include: ['src/**/*.test.ts'] } },
      // Checks of the repository itself (docs name only paths that exist).
      { test: { name: 'repo', root: '.', include: ['scripts/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Migrates one template database per run; every test database is a copy of it (test/helper.ts).
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // Files share a worker: PGlite's WebAssembly and the app's modules load once, not once per file.
          // Each file still builds its own app on its own database.
          isolate: false,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
