import { formatCount, validationMessages } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { LicensesPage } from '../../pages/licenses-page.js';
import { changeableOrganisation, listLicenses } from './teachers-api.js';

test.describe('Licence dashboard', () => {
  test('lists the licences with their counts and links to the Teachers page', { tag: '@phone' }, async ({ page, organisation }) => {
    const dashboard = await new LicensesPage(page, test.info(), organisation.id).goto();
    for (const license of (await listLicenses(page, organisation.id)).filter((l) => !l.applyToAll)) {
      await expect(dashboard.licenseRow(license.name).getByRole('cell')).toHaveText([
        formatCount(license.allocated),
        // The real figure; an over-allocated licence is flagged.
        license.available < 0 ? `${formatCount(license.available)}Over-allocated by ${formatCount(-license.available)}` : formatCount(license.available),
        formatCount(license.quantity),
      ]);
    }
    await expect(dashboard.contactButton()).toHaveAttribute('href', /^mailto:/);
    await expect(dashboard.switchOrganisationButton()).toBeVisible();
    await dashboard.teachersLink().click();
    await expect(page).toHaveURL(new RegExp(`/${organisation.id}/teachers$`));
  });

  test("'Switch organisation' can be cancelled: Cancel goes back to the organisation's dashboard", async ({ page, organisation }) => {
    const dashboard = await new LicensesPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    await dashboard.switchOrganisationButton().focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Select Organization' })).toBeVisible();
    const cancel = page.getByRole('button', { name: 'Cancel' });
    await cancel.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/${organisation.id}$`));
    await dashboard.waitUntilReady();
  });

  test('renames the organisation on leaving the field and refuses an empty name', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const dashboard = await new LicensesPage(page, test.info(), org.id).goto();
    const original = await dashboard.nameInput().inputValue();
    const renamed = `${original} (renamed)`;
    try {
      await dashboard.rename(`  ${renamed}  `);
      await expect(page.getByRole('navigation').getByText(renamed)).toBeVisible();
      await page.reload();
      await dashboard.waitUntilReady();
      await expect(dashboard.nameInput()).toHaveValue(renamed);

      await dashboard.rename('   ');
      await expect(dashboard.notification(validationMessages.organisationNameEmpty)).toBeVisible();
      await expect(dashboard.nameInput()).toHaveValue(renamed);
    } finally {
      await dashboard.rename(original);
      await expect(page.getByRole('navigation').getByText(original, { exact: true })).toBeVisible();
    }
  });
});
