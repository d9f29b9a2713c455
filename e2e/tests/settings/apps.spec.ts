import { APP_CATALOGUE, APP_PERMISSION_LABELS, appsMessages, settingsMessages } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { ManageAppsPage } from '../../pages/settings-pages.js';
import { namelessDialogSeen, watchForNamelessDialogs } from '../../support/dialog-names.js';
import { expectWithinWidth } from '../../support/layout.js';
import { changeableOrganisation } from '../teachers/teachers-api.js';
import { changeSettings, failNextSettingsUpdate, readSettings } from './settings-api.js';

test.describe('Manage Apps', () => {
  test('lists the ten apps; a teacher-only app offers only two values; a change applies at once and is saved', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    await changeSettings(page, org.id, { apps: { giphy: null } });
    const apps = await new ManageAppsPage(page, test.info(), org.id).goto();
    await expect(apps.table().locator('tbody tr')).toHaveCount(APP_CATALOGUE.length);
    await expect(apps.table().getByRole('columnheader')).toHaveText(['App', 'Privacy', 'Permissions']);
    await expect(apps.row('Bitmoji')).toContainText('Teachers only');
    await expect(apps.permission('Bitmoji').locator('option')).toHaveText([APP_PERMISSION_LABELS.teachersOnly, APP_PERMISSION_LABELS.disabled]);
    await expect(apps.permission('GIPHY').locator('option')).toHaveText([
      APP_PERMISSION_LABELS.teachersAndStudents, APP_PERMISSION_LABELS.teachersOnly, APP_PERMISSION_LABELS.disabled,
    ]);
    const box = await apps.table().locator('tbody tr').first().boundingBox();
    expect(Math.round(box?.height ?? 0)).toBeGreaterThanOrEqual(58);

    try {
      // A native select: a choice picked from the browser's own opened list arrives
      // as one change event, which is what selectOption sends.
      // The save is held back a moment to see that row's loading overlay while the new value already shows.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/organisations/*/settings*', async (route) => {
        if (route.request().method() === 'PATCH') await held;
        await route.fallback();
      });
      await apps.permission('GIPHY').focus();
      await apps.permission('GIPHY').selectOption({ label: APP_PERMISSION_LABELS.disabled });
      await expect(apps.row('GIPHY').getByLabel('Saving GIPHY')).toBeVisible();
      await expect(apps.permission('GIPHY')).toHaveValue('-1');
      await expect(apps.row('Canva').getByLabel('Saving Canva')).toHaveCount(0);
      release();
      await expect(apps.permission('GIPHY')).toHaveValue('-1');
      await expect.poll(async () => (await readSettings(page, org.id)).apps.giphy).toBe(-1);
      await expect(apps.permission('GIPHY')).toBeEnabled();
      // Saving does not take the control away: focus stays on it.
      await expect(apps.permission('GIPHY')).toBeFocused();
      await apps.expectAccessible({ label: 'after a change' });
    } finally {
      await changeSettings(page, org.id, { apps: { giphy: null } });
    }
  });

  test('by keyboard, the arrow keys move through the choices and Enter saves the one chosen; focus stays on the control', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    await changeSettings(page, org.id, { apps: { googlemaps: null } });
    const apps = await new ManageAppsPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
    const saves: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/settings')) saves.push(request.postData() ?? '');
    });
    try {
      const select = apps.permission('Google Maps');
      await select.focus();
      await page.keyboard.press('ArrowDown');
      await expect(select).toBeFocused();
      await expect(select).toHaveValue('1');
      await page.keyboard.press('ArrowDown');
      await expect(select).toBeFocused();
      await expect(select).toHaveValue('-1');
      await page.keyboard.press('ArrowUp');
      await expect(select).toHaveValue('1');
      // Moving through the choices saved nothing yet.
      expect(saves).toHaveLength(0);
      expect((await readSettings(page, org.id)).apps.googlemaps).toBeUndefined();

      await page.keyboard.press('Enter');
      await expect.poll(async () => (await readSettings(page, org.id)).apps.googlemaps).toBe(1);
      await expect(apps.row('Google Maps').getByLabel('Saving Google Maps')).toHaveCount(0);
      expect(saves.map((body) => JSON.parse(body) as unknown)).toEqual([{ apps: { googlemaps: 1 } }]);
      await expect(select).toBeFocused();
      await expect(select).toHaveValue('1');
      await expect(select).toBeEnabled();
    } finally {
      await changeSettings(page, org.id, { apps: { googlemaps: null } });
    }
  });

  test('reverts a change that fails, with a clear message', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    await changeSettings(page, org.id, { apps: { canva: null } });
    const apps = await new ManageAppsPage(page, test.info(), org.id).goto();
    await failNextSettingsUpdate(page);
    await apps.permission('Canva').selectOption({ label: APP_PERMISSION_LABELS.teachersOnly });
    await expect(apps.notification(appsMessages.updateFailed('Canva'))).toBeVisible();
    await expect(apps.permission('Canva')).toHaveValue('unset');
    expect((await readSettings(page, org.id)).apps.canva).toBeUndefined();
  });

  test('opens the privacy details of an app and returns focus to its button on close', async ({ page, organisation }) => {
    const apps = await new ManageAppsPage(page, test.info(), organisation.id).goto();
    const giphy = APP_CATALOGUE.find((a) => a.id === 'giphy');
    const dialog = await apps.openDialog(apps.privacyButton('GIPHY'), 'GIPHY: privacy details');
    await expect(dialog.getByText(giphy?.strings.summary ?? '')).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Good to know' })).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Be aware' })).toBeVisible();
    await expect(dialog.getByText(giphy?.ageNote ?? '')).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'GIPHY privacy policy' })).toHaveAttribute('href', giphy?.privacyPolicyURL ?? '');
    const width = (await page.locator('.mantine-Modal-content').boundingBox())?.width ?? 0;
    expect(Math.round(width)).toBe(445);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(apps.privacyButton('GIPHY')).toBeFocused();
  });

  test("the privacy details name the product and each app's provider", async ({ page, organisation }) => {
    const { productName } = (await (await page.request.get('/api/console-config')).json()) as { productName: string };
    const apps = await new ManageAppsPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    // The dialog is one component, checked with axe in the GIPHY test above; here only its words matter, so each app's
    // opens without another axe pass (twelve of them took this test past its minute on a loaded machine).
    const openDetails = async (name: string) => {
      await apps.privacyButton(name).click();
      const dialog = apps.dialog(`${name}: privacy details`);
      await expect(dialog).toBeVisible();
      return dialog;
    };
    for (const app of APP_CATALOGUE) {
      const dialog = await openDetails(app.name);
      await expect(dialog, app.name).not.toContainText(/the product\b/i);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    }
    const emojis = await openDetails('Animated Emojis');
    await expect(emojis).toContainText(`served by ${productName} itself`);
    await page.keyboard.press('Escape');
    for (const [app, provider] of [['AI Image Generator', 'Adobe'], ['3D Models', 'Sketchfab']] as const) {
      const dialog = await openDetails(app);
      await expect(dialog.getByRole('link', { name: `${provider} terms of service` })).toBeVisible();
      await expect(dialog.getByRole('link', { name: `${provider} privacy policy` })).toBeVisible();
      await expect(dialog.getByRole('link', { name: new RegExp(`^${app} (terms|privacy)`) })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    }
  });

  test('is usable 390 px wide: every permission control is whole on screen, and each app\'s details open', async ({ page, organisation }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const apps = await new ManageAppsPage(page, test.info(), organisation.id).goto();
    // The Privacy column gives its room to Permissions: each app's Details button is under its name.
    await expect(apps.table().getByRole('columnheader')).toHaveText(['App', 'Permissions']);
    for (const app of APP_CATALOGUE) {
      const select = apps.permission(app.name);
      await expect(select, app.name).toBeEnabled();
      await expectWithinWidth(page, select);
      await expect(apps.row(app.name).getByRole('cell').first().getByRole('button', { name: `Privacy details: ${app.name}` })).toBeVisible();
    }
    const dialog = await apps.openDialog(apps.privacyButton('Graphic Organizers'), 'Graphic Organizers: privacy details');
    await watchForNamelessDialogs(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(apps.privacyButton('Graphic Organizers')).toBeFocused();
    // Not only gone by its name: while it faded out, it kept it.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(await namelessDialogSeen(page), 'a dialog without a name was on the page while it closed').toBe(false);
  });

  test('says so when the settings cannot be loaded', async ({ page, organisation }) => {
    await page.route('**/api/organisations/*/settings*', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal_error', message: 'Something went wrong' }) }),
    );
    const apps = new ManageAppsPage(page, test.info(), organisation.id);
    await page.goto(apps.path);
    // The console asks twice more (1 s, then 2 s later) before it says so: more than the default wait on a busy machine.
    await expect(page.getByRole('alert').filter({ hasText: settingsMessages.loadFailed }).first()).toBeVisible({ timeout: 30_000 });
    await apps.expectAccessible({ label: 'settings load error' });
  });
});
