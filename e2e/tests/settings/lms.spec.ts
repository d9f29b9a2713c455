import { lmsMessages, LTI_NEW_TAB_TEXT, LTI_PRIVACY_TEXT } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { LmsPage } from '../../pages/settings-pages.js';
import { changeableOrganisation } from '../teachers/teachers-api.js';

test.describe('LMS Integration', () => {
  test('generates credentials, shows every row, and revokes them after asking, by keyboard', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const lms = await new LmsPage(page, test.info(), org.id).goto();
    await expect(page.getByRole('heading', { level: 2, name: 'LTI Configuration' })).toBeVisible();
    await expect(page.getByText('need no account and no sign-in')).toBeVisible();

    // Start from none (the demo may have given this organisation credentials).
    if (await lms.revokeButton().isVisible()) {
      await lms.revokeButton().click();
      await lms.dialog('Revoke LTI credentials').getByRole('button', { name: 'Confirm' }).click();
    }
    await expect(lms.value('Key')).toHaveText(lmsMessages.notGenerated);
    await expect(lms.value('Secret')).toHaveText(lmsMessages.notGenerated);
    await expect(lms.value('Launch url')).toHaveText(/\/lti\/launch$/);
    await expect(lms.value('Domain')).toHaveText(new URL(process.env.E2E_BASE_URL ?? '').host);
    await expect(lms.value('Privacy')).toHaveText(LTI_PRIVACY_TEXT);
    await expect(lms.value('Open in a new tab')).toHaveText(LTI_NEW_TAB_TEXT);
    await expect(page.getByText('XML configuration with an LTI cartridge is also supported at')).toBeVisible();
    await lms.expectAccessible({ label: 'credentials not generated' });

    // Keyboard only: focus Generate and press Enter. The answer is held back a moment to see the generating state.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/graphql', async (route) => {
      if ((route.request().postData() ?? '').includes('generateLTICredentials')) await held;
      await route.fallback();
    });
    await lms.generateButton().focus();
    await page.keyboard.press('Enter');
    await expect(lms.value('Key').getByLabel('Generating credentials')).toBeVisible();
    await expect(lms.value('Secret').getByLabel('Generating credentials')).toBeVisible();
    await expect(lms.generateButton()).toHaveCount(0);
    await expect(lms.revokeButton()).toHaveCount(0);
    release();
    await expect(lms.value('Key')).toHaveText(/^[0-9a-f]{32}$/);
    await expect(lms.value('Secret')).not.toHaveText(lmsMessages.notGenerated);
    await expect(lms.generateButton()).toHaveCount(0);
    // Generate is gone: focus moves to the Revoke button that replaced it, not to the page.
    await expect(lms.revokeButton()).toBeFocused();
    await lms.expectAccessible({ label: 'credentials generated' });

    // Revoke asks first; Cancel keeps them.
    await lms.revokeButton().focus();
    await page.keyboard.press('Enter');
    const dialog = lms.dialog('Revoke LTI credentials');
    await expect(dialog).toBeVisible();
    await lms.expectAccessible({ include: '[role="dialog"]', label: 'revoke dialog' });
    await page.keyboard.press('Enter'); // Cancel has the focus
    await expect(dialog).toHaveCount(0);
    await expect(lms.revokeButton()).toBeFocused();
    await expect(lms.value('Key')).toHaveText(/^[0-9a-f]{32}$/);

    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirm' }).press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(lms.value('Key')).toHaveText(lmsMessages.notGenerated);
    await expect(lms.generateButton()).toBeFocused();
  });

  test('a double-click on Generate makes one set of credentials and shows no error', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const lms = await new LmsPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
    if (await lms.revokeButton().isVisible()) {
      await lms.revokeButton().click();
      await lms.dialog('Revoke LTI credentials').getByRole('button', { name: 'Confirm' }).click();
    }
    await expect(lms.generateButton()).toBeVisible();
    let generateCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && (request.postData() ?? '').includes('generateLTICredentials')) generateCalls += 1;
    });
    await lms.generateButton().dblclick();
    await expect(lms.value('Key')).toHaveText(/^[0-9a-f]{32}$/);
    await expect(lms.revokeButton()).toBeVisible();
    // Long enough for a second answer (and its message) to arrive.
    await page.waitForTimeout(1000);
    await expect(lms.notification(lmsMessages.generateFailed)).toHaveCount(0);
    expect(generateCalls).toBe(1);
  });

  test('says so when generating or revoking fails', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const lms = await new LmsPage(page, test.info(), org.id).goto();
    await page.route('**/graphql', async (route) => {
      const body = route.request().postData() ?? '';
      if (/generateLTICredentials|revokeLTICredentials/.test(body)) {
        await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ data: null, errors: [{ message: 'Something went wrong' }] }) });
        return;
      }
      await route.fallback();
    });
    if (await lms.generateButton().isVisible()) {
      await lms.generateButton().click();
      await expect(lms.notification(lmsMessages.generateFailed)).toBeVisible();
      await expect(lms.value('Key')).toHaveText(lmsMessages.notGenerated);
      // Generate was hidden while it ran: focus goes back to it, not to the page.
      await expect(lms.generateButton()).toBeFocused();
    } else {
      await lms.revokeButton().click();
      await lms.dialog('Revoke LTI credentials').getByRole('button', { name: 'Confirm' }).click();
      await expect(lms.notification(lmsMessages.revokeFailed)).toBeVisible();
      await expect(lms.value('Key')).toHaveText(/^[0-9a-f]{32}$/);
    }
  });

  test('shows the credentials error when they cannot be loaded', async ({ page, organisation }) => {
    await page.route('**/graphql', async (route) => {
      const body = route.request().postData() ?? '';
      if (body.includes('lti {')) {
        await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ data: null, errors: [{ message: 'Something went wrong' }] }) });
        return;
      }
      await route.fallback();
    });
    const lms = new LmsPage(page, test.info(), organisation.id);
    await page.goto(lms.path);
    await expect(lms.heading('LMS Integration')).toBeVisible();
    // The console asks twice more (1 s, then 2 s later) before it says so: more than the default wait on a busy machine.
    await expect(page.getByRole('alert').filter({ hasText: lmsMessages.loadFailed }).first()).toBeVisible({ timeout: 30_000 });
    await lms.expectAccessible({ label: 'credentials load error' });
  });
});
