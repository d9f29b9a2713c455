import { test as base, expect, type Page } from '@playwright/test';
import { checkAccessibility, type AccessibilityOptions } from './support/axe.js';
import { demoAdmin } from './support/env.js';

type ExpectAccessible = (page?: Page, options?: AccessibilityOptions) => Promise<void>;

interface Fixtures {
  /** Runs axe now on a page (default: the test's page); page objects call it after navigation and when a dialog opens. */
  expectAccessible: ExpectAccessible;
  /** Turn off the automatic end-of-test axe check, e.g. for a test that leaves a page mid-transition on purpose. */
  skipFinalAccessibilityCheck: () => void;
  /** The demo administrator the server was seeded with. */
  demoAdmin: { email: string; password: string };
}

/**
 * The test every end-to-end spec imports. Its page comes from the test's browser context (axe needs a
 * context), and after every passing test axe checks the page as the test left it.
 */
export const test = base.extend<Fixtures & { finalAccessibilityCheck: { enabled: boolean } }>({
  // Playwright reads fixture dependencies from the destructuring pattern, so an empty one is required here.
  // eslint-disable-next-line no-empty-pattern
  finalAccessibilityCheck: async ({}, use) => {
    await use({ enabled: true });
  },
  skipFinalAccessibilityCheck: async ({ finalAccessibilityCheck }, use) => {
    await use(() => {
      finalAccessibilityCheck.enabled = false;
    });
  },
  page: async ({ context, finalAccessibilityCheck }, use, testInfo) => {
    const page = await context.newPage();
    const traffic = recordTraffic(page);
    await use(page);
    // A failure's report (the list reporter prints text attachments) shows what the page asked that went wrong and
    // where it went: a flaky failure seen once in CI is then explained by its log (a first attempt has no trace).
    if (testInfo.status === 'failed' || testInfo.status === 'timedOut') {
      const report = traffic.join('\n') || '(no failed request, no navigation)';
      await testInfo.attach('page traffic', { body: report, contentType: 'text/plain' });
    }
    // A page never given content (API-only tests) has nothing to check.
    const visited = !page.isClosed() && (await page.evaluate(() => (document.body?.childElementCount ?? 0) > 0).catch(() => false));
    // Only after a passing body: a failure already explains itself, and its page is often half-drawn.
    if (finalAccessibilityCheck.enabled && visited && testInfo.status === 'passed') {
      await checkAccessibility(page, testInfo, { label: `${page.url()} (end of test)`, skipIfUnchanged: true });
    }
  },
  expectAccessible: async ({ page }, use, testInfo) => {
    await use((target = page, options = {}) => checkAccessibility(target, testInfo, options));
  },
  // eslint-disable-next-line no-empty-pattern
  demoAdmin: async ({}, use) => {
    await use({ ...demoAdmin });
  },
});

/**
 * What went wrong between a page and the server, as it happened: answers of 400 and more, requests that got no
 * answer, and every navigation of the main frame (a test that ends on /sign-in shows when it went there).
 */
function recordTraffic(page: Page): string[] {
  // Links can carry one-time tokens and signatures (verification mails, signed analytics links): their values
  // stay out of the log.
  const redact = (url: string) => url.replace(/([?&](?:token|signature|sig|code|key|secret)[^=&]*=)[^&#]*/gi, '$1…');
  const lines: string[] = [];
  const started = Date.now();
  const note = (line: string) => {
    if (lines.length < 200) lines.push(`+${((Date.now() - started) / 1000).toFixed(1)}s ${line}`);
  };
  page.on('response', (response) => {
    if (response.status() >= 400) note(`${response.status()} ${response.request().method()} ${redact(response.url())}`);
  });
  page.on('requestfailed', (request) => note(`failed ${request.method()} ${redact(request.url())}: ${request.failure()?.errorText ?? ''}`));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`at ${redact(frame.url())}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  return lines;
}

export { expect };
