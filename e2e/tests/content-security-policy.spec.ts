import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/auth.js';
import { SignInPage } from '../pages/auth/sign-in-pages.js';
import { TeachersPage } from '../pages/teachers-page.js';

/**
 * The console runs under its own Content Security Policy without tripping it (Lighthouse's best-practices
 * audit counts every violation): no eval, no inline script, on the first screen and on a signed-in one.
 */
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as { __cspViolations?: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} at ${e.sourceFile}:${e.lineNumber}`));
  });
});

const violations = (page: Page) => page.evaluate(() => (window as { __cspViolations?: string[] }).__cspViolations ?? []);

test.describe('signed out', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('/sign-in trips nothing', async ({ page }) => {
    const signIn = new SignInPage(page);
    await page.goto(signIn.path);
    await signIn.waitUntilReady();
    expect(await violations(page)).toEqual([]);
  });
});

test('the Teachers screen trips nothing', async ({ page, organisation }) => {
  const teachers = new TeachersPage(page, test.info(), organisation.id);
  await page.goto(teachers.path);
  await teachers.waitUntilReady();
  expect(await violations(page)).toEqual([]);
});
