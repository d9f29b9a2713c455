import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, PHONE_PROJECT, PROXY_PROJECT } from './support/env.js';

type TraceMode = Exclude<NonNullable<PlaywrightTestConfig['use']>['trace'], object | undefined>;

/**
 * The tests the phone project runs: those tagged `@phone` (`test('…', { tag: '@phone' }, …)`), in any spec. A test is
 * tagged when what it checks looks different at 390 px: a table that drops columns or moves them under the e-mail, a
 * layout, a screen that must not scroll sideways, a flow whose dialogs and menus change shape (the licence dashboard
 * and a district's allocations, Teachers, a district's Teachers, Admin, a district's Analytics, the LTI 1.3
 * registration and its Dynamic Registration, the Audit log's filters and states, enrolment in 2-step verification required by an organisation).
 * The rest of a spec, whose steps do the same at any width, runs at desktop width only.
 */
const PHONE_TAG = /@phone/;

/**
 * The proxied flows (tests/proxy): three copies of the server behind HAProxy on one PostgreSQL database, started by
 * their own fixture (fixtures/proxy.ts). Only with TEST_DATABASE_URL, so CI's PostgreSQL pass runs them
 * (scripts/ci-test.mjs) and a PGlite run does not list them.
 */
const PROXY_SPECS = '**/proxy/**/*.spec.ts';

/**
 * End-to-end tests in Debian's Chromium against the real server, which global-setup.ts starts
 * (fresh data, demo district seeded). See README.md beside this file.
 */
export default defineConfig({
  testDir: './tests',
  globalSetup: './global-setup.ts',
  // Tests share one server and its demo data; two workers suit a 2-core machine (CI too: it runs the
  // suite twice and must stay well under 20 minutes). E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS || 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  // CI runs the unit tests beside this suite on two cores, and a sign-in alone then took 10–17 s (traces in
  // docs/performance-log.md): a test gets 90 s there, 60 s elsewhere.
  timeout: process.env.CI ? 90_000 : 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  // E2E_OUTPUT_DIR gives a run its own folder (CI gives each database pass one: scripts/ci-test.mjs).
  outputDir: process.env.E2E_OUTPUT_DIR || 'test-results',
  use: {
    // Set by the global setup before workers start; workers re-read this file.
    baseURL: process.env.E2E_BASE_URL,
    // Recording a trace makes Chromium send a screenshot of every frame of every test, passing or not
    // (docs/performance-log.md: 14 % of a run's CPU). CI retries a failed test once, traced (on-first-retry);
    // locally, with no retries, a failed test keeps its trace. E2E_TRACE overrides (Playwright's modes).
    trace: (process.env.E2E_TRACE as TraceMode | undefined) || (process.env.CI ? 'on-first-retry' : 'retain-on-failure'),
    screenshot: 'only-on-failure',
    locale: 'en-GB',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: PROXY_SPECS,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    {
      // A phone: the tests tagged @phone again at 390 × 844, with axe; not a second suite.
      name: PHONE_PROJECT,
      testIgnore: PROXY_SPECS,
      grep: PHONE_TAG,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 390, height: 844 },
        isMobile: false,
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    ...(process.env.TEST_DATABASE_URL
      ? [
          {
            // One worker runs them all: the cluster is started once per worker.
            name: PROXY_PROJECT,
            testMatch: PROXY_SPECS,
            fullyParallel: false,
            use: {
              ...devices['Desktop Chrome'],
              viewport: { width: 1280, height: 800 },
              launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
            },
          },
        ]
      : []),
  ],
});
