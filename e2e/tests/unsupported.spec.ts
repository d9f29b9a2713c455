import { expect, test } from '../fixtures.js';
import { UnsupportedPage } from '../pages/unsupported-page.js';

test('/unsupported tells the user their browser is not supported, accessibly', async ({ page }) => {
  const unsupported = await new UnsupportedPage(page, test.info()).goto();
  await expect(unsupported.title()).toHaveText("Your browser isn't supported");
  for (const browser of [/Chrome/, /Safari/, /Internet Explorer/, /Edge/]) {
    await expect(unsupported.browserLink(browser).first()).toBeVisible();
  }
});
