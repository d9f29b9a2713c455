import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The server's test files that open no database: their outcome cannot depend on which one the run uses, so they run
 * once per run (project server-no-database) and CI's PostgreSQL pass (`--project server`) does not repeat them. The
 * project has no database template: a file here that opens a test database fails at once ('No test database
 * template'). A file left off this list runs on every database, as any new file does.
 */
const SERVER_FILES_WITHOUT_DATABASE = [
  'src/env.test.ts',
  'src/plugins/logger.test.ts',
  'src/db/copy-binary-field.test.ts',
  'src/db/statement-shapes.test.ts',
  'src/db/demo/seed-cli.test.ts',
  'src/modules/analytics/analytics-cache.test.ts',
  'src/modules/analytics/signed-url.test.ts',
  'src/modules/audit/audit.presenter.test.ts',
  'src/modules/identity/hash-pool.test.ts',
  'src/modules/identity/id-token.test.ts',
  'src/modules/identity/log-redaction.test.ts',
  'src/modules/lti/lti-units.test.ts',
  'src/modules/two-step/totp.test.ts',
  'test/start-refusals.test.ts',
  'test/tenant-filter.test.ts',
];

/**
 * What the server's projects share: files in one worker process, time for a server started as a child. CI runs these
 * beside the end-to-end suite on two cores, where a test that builds the demo district twice took 33–37 s: twice the
 * time there.
 */
const serverProject = {
  root: 'apps/server',
  testTimeout: process.env.CI ? 60_000 : 30_000,
  hookTimeout: process.env.CI ? 120_000 : 60_000,
  pool: 'forks',
  // Files share a worker: PGlite's WebAssembly and the app's modules load once, not once per file.
  // Each file still builds its own app on its own database.
  isolate: false,
} as const;

// One runner for every unit and integration test: core rules, server (through app.inject), web components.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'core', root: 'packages/core', include: ['src/**/*.test.ts'] } },
      // Checks of the repository itself (docs name only paths that exist).
      { test: { name: 'repo', root: '.', include: ['scripts/**/*.test.ts'] } },
      {
        test: {
          ...serverProject,
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SERVER_FILES_WITHOUT_DATABASE],
          // Migrates one template database per run; every test database is a copy of it (test/helper.ts).
          globalSetup: ['test/global-setup.ts'],
          // After each file: every statement its tests ran on a tenant table names its organisation (test/tenant-filter.setup.ts).
          setupFiles: ['test/tenant-filter.setup.ts'],
        },
      },
      { test: { ...serverProject, name: 'server-no-database', include: SERVER_FILES_WITHOUT_DATABASE } },
      'apps/web/vitest.config.ts',
    ],
  },
});
