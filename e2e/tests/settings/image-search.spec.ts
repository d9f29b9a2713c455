import { settingsMessages } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { ImageSearchPage } from '../../pages/settings-pages.js';
import { changeableOrganisation } from '../teachers/teachers-api.js';
import { changeSettings, failNextSettingsUpdate, readSettings } from './settings-api.js';

test.describe('Image Search Settings', () => {
  test('switching Google off asks first; switching it on applies at once (keyboard only)', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    await changeSettings(page, org.id, { imageSearch: null });
    const imageSearch = await new ImageSearchPage(page, test.info(), org.id).goto();
    const toggle = imageSearch.toggle();
    await expect(toggle).toBeChecked();

    try {
      await toggle.focus();
      await page.keyboard.press('Space');
      const dialog = imageSearch.dialog('Turn off Google image search?');
      await expect(dialog).toBeVisible();
      await imageSearch.expectAccessible({ include: '[role="dialog"]', label: 'turn off dialog' });
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
      await expect(toggle).toBeChecked();
      await expect(toggle).toBeFocused();
      expect((await readSettings(page, org.id)).imageSearch).toBeNull();

      await page.keyboard.press('Space');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Turn off' }).press('Enter');
      await expect(toggle).not.toBeChecked();
      await expect(page.getByText('moderated safe images only (Pixabay).', { exact: false }).last()).toBeVisible();
      await expect.poll(async () => (await readSettings(page, org.id)).imageSearch).toBe('pixabay');

      await toggle.focus();
      await page.keyboard.press('Space');
      await expect(dialog).toHaveCount(0);
      await expect(toggle).toBeChecked();
      await expect.poll(async () => (await readSettings(page, org.id)).imageSearch).toBeNull();
    } finally {
      await changeSettings(page, org.id, { imageSearch: null });
    }
  });

  test('reverts the toggle with the spec’s message when the save fails', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    await changeSettings(page, org.id, { imageSearch: 'pixabay' });
    try {
      const imageSearch = await new ImageSearchPage(page, test.info(), org.id).goto();
      await expect(imageSearch.toggle()).not.toBeChecked();
      await failNextSettingsUpdate(page);
      await imageSearch.toggle().click({ force: true });
      await expect(imageSearch.notification(settingsMessages.imageSearchFailed)).toBeVisible();
      await expect(imageSearch.toggle()).not.toBeChecked();
      expect((await readSettings(page, org.id)).imageSearch).toBe('pixabay');
    } finally {
      await changeSettings(page, org.id, { imageSearch: null });
    }
  });
});
