import { expect, test } from '../../fixtures/auth.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { changeableOrganisation, importByApi, listLicenses, listTeachers, revokeByApi, uniqueEmails } from './teachers-api.js';

/**
 * Issue 15 item 10: the Active list's filters and 'Select all n teachers' across pages. Twelve fresh pending
 * teachers, found by their shared address prefix, so the set is exactly theirs.
 */
test('filters, Select all n teachers across pages, and a licence given to and taken from all of them', async ({ page, organisation, organisations }) => {
  const org = await changeableOrganisation(page, organisations, organisation);
  const emails = uniqueEmails('selall', 12);
  const prefix = emails[0]!.slice(0, emails[0]!.lastIndexOf('-') + 1);
  const imported = await importByApi(page, org.id, emails);
  const license = (await listLicenses(page, org.id)).find((l) => !l.applyToAll && l.available >= emails.length);
  if (!license) throw new Error('the organisation has a licence with room for twelve teachers');
  const holding = async (licenseId: string) =>
    (await listTeachers(page, org.id, { search: prefix, pageSize: 100 })).members.filter((m) => m.license?.id === licenseId).length;

  try {
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(prefix);
    await teachers.chooseFilter('Signed up', 'No');
    await expect(teachers.rows()).toHaveCount(10);
    await teachers.expectAccessible({ label: 'teachers, filtered' });

    // The page's header box ticks the ten rows shown; the bar then offers all twelve.
    await page.getByRole('checkbox', { name: 'Select all teachers on this page' }).check();
    await expect(teachers.bulkBar().getByText('10 teachers selected')).toBeVisible();
    await expect(teachers.bulkBar().getByText('All 10 teachers on this page are selected.')).toBeVisible();
    await teachers.expectAccessible({ label: 'page selected, Select all offered' });
    await teachers.selectAllMatching(12).click();
    await expect(teachers.bulkBar().getByText('12 teachers selected')).toBeVisible();
    await expect(teachers.bulkBar().getByText('All 12 teachers are selected.')).toBeVisible();
    await teachers.expectAccessible({ label: 'all matching selected' });

    // The count is in the confirmation before anything changes.
    const assign = await teachers.applyBulk(`Assign ${license.name} license`, 'Assign license');
    await expect(assign!.getByText(`Assign the ${license.name} license to 12 teachers?`)).toBeVisible();
    await assign!.getByRole('button', { name: 'Assign' }).click();
    await expect(page.getByText('License assigned to 12 teachers')).toBeVisible();
    await expect(teachers.bulkBar()).toHaveCount(0);
    expect(await holding(license.id)).toBe(12);

    // And back: every teacher on that licence among them.
    await teachers.chooseFilter('License', license.name);
    await expect(teachers.rows()).toHaveCount(10);
    await page.getByRole('checkbox', { name: 'Select all teachers on this page' }).check();
    await teachers.selectAllMatching(12).click();
    const remove = await teachers.applyBulk('Remove license', 'Remove license');
    await expect(remove!.getByText('Remove the license from 12 teachers?')).toBeVisible();
    await remove!.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('License removed from 12 teachers')).toBeVisible();
    expect(await holding(license.id)).toBe(0);
    await expect(page.getByText('No teachers found')).toBeVisible();
    await teachers.expectAccessible({ label: 'filtered, none left' });
  } finally {
    await revokeByApi(page, org.id, imported.map((m) => m.id));
  }
});
