import { ACCESSIBILITY_CHECKED, AccessibilityError } from '../support/axe.js';
import { expect, test } from '../fixtures.js';

// The axe gate itself: a page with serious violations must fail with a readable list, a clean one must pass.
test.describe('accessibility gate', () => {
  test.skip(!ACCESSIBILITY_CHECKED, 'this pass runs without the accessibility checks (E2E_ACCESSIBILITY=off)');
  test('fails on serious and critical violations, naming rule and element', async ({ page, expectAccessible }) => {
    await page.setContent(
      '<!doctype html><html><head><title>Bad</title></head><body><main><h1>Bad</h1><img src="x.png"><button></button></main></body></html>',
    );
    const error = await expectAccessible(page).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AccessibilityError);
    const message = (error as Error).message;
    expect(message).toContain('[critical] image-alt');
    expect(message).toContain('[critical] button-name');
    expect(message).toContain('[serious] html-has-lang');
    expect(message).toContain('at img');
    // Leave an accessible page for the automatic end-of-test check.
    await page.setContent('<!doctype html><html lang="en"><head><title>Fixed</title></head><body><main><h1>Fixed</h1></main></body></html>');
  });

  test('checks only the dialog when asked', async ({ page, expectAccessible }) => {
    await page.setContent(
      `<!doctype html><html lang="en"><head><title>Dialog</title></head><body><main><h1>Page</h1><img src="x.png"></main>
       <div role="dialog" aria-modal="true" aria-label="Confirm"><p>Sure?</p><button>OK</button></div></body></html>`,
    );
    await expectAccessible(page, { include: '[role="dialog"]' });
    await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);
    await page.setContent('<!doctype html><html lang="en"><head><title>Fixed</title></head><body><main><h1>Fixed</h1></main></body></html>');
  });

  // axe is put in a document once (support/axe.ts): a later check of the same document, and a frame's content, are
  // still audited.
  test('checks a document again after it changes, and the frames inside it', async ({ page, expectAccessible }) => {
    // Two routed pages of the server's origin (axe audits the frames of the page's own origin).
    const html = (title: string, main: string) =>
      `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${main}</main></body></html>`;
    await page.route('**/harness/outer', (route) => route.fulfill({ contentType: 'text/html', body: html('Outer', '<iframe title="Inner" src="/harness/inner"></iframe>') }));
    await page.route('**/harness/inner', (route) => route.fulfill({ contentType: 'text/html', body: html('Inner', '<p>Inner</p>') }));
    await page.goto('/harness/outer');
    await expect.poll(() => page.frames().length).toBe(2);
    await page.frames()[1]?.waitForLoadState();
    await expectAccessible(page);

    await page.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('beforeend', '<button></button>'));
    await expect(expectAccessible(page)).rejects.toThrow(/button-name/);
    await page.evaluate(() => document.querySelector('main button')?.remove());
    await expectAccessible(page);

    await page.frames()[1]?.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('beforeend', '<img src="x.png">'));
    await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);
    await page.setContent(html('Fixed', ''));
  });
});

test.describe('automatic end-of-test check', () => {
  test.skip(!ACCESSIBILITY_CHECKED, 'this pass runs without the accessibility checks (E2E_ACCESSIBILITY=off)');
  // The body passes; the check after it must fail the test because the page it leaves is inaccessible.
  test.fail();
  test('fails a test that leaves an inaccessible page', async ({ page }) => {
    await page.setContent('<!doctype html><html><head><title>Bad</title></head><body><img src="x.png"></body></html>');
  });
});
