/**
 * What the end-to-end run shares between the global setup (which starts the server) and the tests.
 * The global setup writes E2E_BASE_URL into the environment before any worker starts, so workers see it.
 */

/** The demo administrator the server seeds (DEMO_SEED=true); the server is started with these values. */
export const demoAdmin = {
  email: process.env.DEMO_ADMIN_EMAIL || 'admin@demo.quire.school',
  password: process.env.DEMO_ADMIN_PASSWORD || 'quire-demo-1',
} as const;

/**
 * The provider-staff admin the demo seeds (support@ PROVIDER_EMAIL_DOMAIN, the demo password): admin of
 * every demo school, and the only one who may remove signed-up teachers (spec §6).
 */
export const demoStaff = {
  email: `support@${(process.env.PROVIDER_EMAIL_DOMAIN || 'quire.app').toLowerCase()}`,
  password: demoAdmin.password,
} as const;

/** Ports used when the run starts its own server (E2E_PORT pins one). */
export const PORT_RANGE = { first: 3300, last: 3399 } as const;

/** The console and APIs under test; set by the global setup, or given to test an already running server. */
export function baseUrl(): string {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is not set: run the tests through `npm test -w e2e` (playwright test).');
  return url;
}

/** Chromium from Debian; Playwright's own browser downloads are never used. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
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
