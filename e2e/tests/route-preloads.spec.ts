import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/auth.js';
import { SignInPage } from '../pages/auth/sign-in-pages.js';
import { TeachersPage } from '../pages/teachers-page.js';

/**
 * A deep link's page names the files its screen needs (apps/web/build/route-preloads.ts), so the browser fetches them
 * beside the entry script. The names come from the build's chunk graph: this checks, on the real build, that each
 * named file is one the screen loads, that none is fetched twice, and that the console adds no second <link> for it.
 */
const staticFiles = (html: string, rel: string) =>
  [...html.matchAll(new RegExp(`<link rel="${rel}"[^>]* href="(/static/[^"]+)"`, 'g'))].map((m) => m[1]!);

function recordStaticRequests(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/static/')) requested.push(url.pathname);
  });
  return requested;
}

test('the Teachers deep link names its screen’s scripts and style sheets, each loaded once', async ({ page, organisation }) => {
  const teachers = new TeachersPage(page, test.info(), organisation.id);
  const html = await (await page.request.get(teachers.path, { headers: { accept: 'text/html' } })).text();
  const scripts = staticFiles(html, 'modulepreload');
  const styles = staticFiles(html, 'preload');
  expect(scripts.some((file) => /\/teachers-screen-[\w-]+\.js$/.test(file))).toBe(true);
  expect(styles.length).toBeGreaterThan(0);

  const requested = recordStaticRequests(page);
  await page.goto(teachers.path);
  await teachers.waitUntilReady();
  for (const file of [...scripts, ...styles]) {
    expect(requested.filter((r) => r === file), file).toHaveLength(1);
    const links = await page.locator(`link[href="${file}"]${file.endsWith('.css') ? '[rel="stylesheet"]' : ''}`).count();
    // A script: only the page's own link. A style sheet: the one the console applies (the page's only preloads it).
    expect(links, file).toBe(1);
  }
});

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('/sign-in names nothing: before its choices show it fetches only its page’s scripts, what the first-download budget counts', async ({ page }) => {
    const requested = recordStaticRequests(page);
    const signIn = await (await page.request.get('/sign-in', { headers: { accept: 'text/html' } })).text();
    // The page's own scripts: the entry and the chunks it imports (scripts/bundle-size.mjs counts these).
    const own = [...signIn.matchAll(/<script[^>]+src="(\/static\/[^"]+\.js)"/g), ...signIn.matchAll(/<link rel="modulepreload"[^>]* href="(\/static\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(own.filter((f) => !/\/(index|react|core-helpers)-[\w-]+\.js$/.test(f))).toEqual([]);
    expect(staticFiles(signIn, 'preload')).toEqual([]);
    const screen = new SignInPage(page);
    await page.goto(screen.path);
    await expect(screen.emailLink()).toBeVisible();
    // The configuration, the session and the sign-in methods are parsed with the first download's schemas: zod's
    // classic build (the contracts' chunk) is not fetched before the choices show.
    expect(requested.filter((r) => r.endsWith('.js')).sort()).toEqual([...own].sort());

    const email = await (await page.request.get('/sign-in/email', { headers: { accept: 'text/html' } })).text();
    const emailScripts = staticFiles(email, 'modulepreload');
    expect(emailScripts.some((file) => /\/sign-in-screens-[\w-]+\.js$/.test(file))).toBe(true);
    expect(emailScripts.some((file) => /\/contracts-[\w-]+\.js$/.test(file))).toBe(true);
  });
});
