import { existsSync } from 'node:fs';
/**
 * What the end-to-end run shares between the global setup (which starts the server) and the tests.
 * The global setup writes E2E_BASE_URL into the environment before any worker starts, so workers see it.
 */

/** The demo administrator the server seeds (DEMO_SEED=true); the server is started with these values. */
export const demoAdmin = {
  email: process.env.DEMO_ADMIN_EMAIL || 'admin@demo.quire.school',
  password: process.env.DEMO_ADMIN_PASSWORD || 'quire-demo-1',
} as const;

/** What every server an end-to-end run starts is given: the demo seeded, and its shortcuts for tests. */
export function demoServerEnv(): Record<string, string> {
  return {
    DEMO_SEED: 'true',
    // scrypt at N = 2^10 instead of 2^17 (half a second a hash): the suite signs in over a hundred times.
    PASSWORD_SCRYPT_LOG2_N: '10',
    // The specs act as the demo's provider-staff admin without a second step (the server tests cover that rule).
    PROVIDER_STAFF_TWO_STEP: 'off',
    DEMO_ADMIN_EMAIL: demoAdmin.email,
    DEMO_ADMIN_PASSWORD: demoAdmin.password,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL || 'warn',
  };
}

/**
 * The provider-staff admin the demo seeds (support@ PROVIDER_EMAIL_DOMAIN, the demo password): admin of
 * every demo school but the stand-alone Hazel Brook, and the only one who may remove signed-up teachers (spec §6).
 */
export const demoStaff = {
  email: `support@${(process.env.PROVIDER_EMAIL_DOMAIN || 'quire.app').toLowerCase()}`,
  password: demoAdmin.password,
} as const;

/** A range of ports from an environment variable written "first-last", or the default. */
function portRange(variable: string, fallback: { first: number; last: number }): { first: number; last: number } {
  const value = process.env[variable];
  if (!value) return fallback;
  const match = /^(\d+)-(\d+)$/.exec(value.trim());
  const [first, last] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(first > 0 && last >= first && last < 65536)) throw new Error(`${variable} must be written first-last (e.g. 3300-3349), not ${value}`);
  return { first, last };
}

/**
 * Ports used when the run starts its own servers (E2E_PORT pins the console's), and the sign-in peers' ports
 * (support/auth-peers.ts). E2E_PORT_RANGE and E2E_PEER_PORT_RANGE narrow them, so two runs at the same time
 * cannot pick the same free port (CI gives each database pass its own: scripts/ci-test.mjs).
 */
export const PORT_RANGE = portRange('E2E_PORT_RANGE', { first: 3300, last: 3399 });
export const PEER_PORT_RANGE = portRange('E2E_PEER_PORT_RANGE', { first: 3600, last: 3699 });

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * Chromium from Debian; Playwright's own browser downloads are never used. Debian's headless shell (package
 * `chromium-headless-shell`, the build Playwright itself runs headless tests in, same version as Debian's Chromium)
 * when it is installed: it takes about a quarter less CPU (docs/performance-log.md); `.ci/run` installs it. Otherwise
 * Debian's full Chromium. `CHROMIUM_PATH` chooses another.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Playwright project that runs the dashboard, Teachers and Admin specs at 390 × 844 (playwright.config.ts). */
export const PHONE_PROJECT = 'phone';

/** The Playwright project of the proxied flows: three copies behind HAProxy, only with TEST_DATABASE_URL (playwright.config.ts). */
export const PROXY_PROJECT = 'proxy';
