import { expect, test } from '../../fixtures/auth.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { changeableOrganisation, importByApi, revokeByApi, uniqueEmails } from './teachers-api.js';

/**
 * The Active list's filters and 'Select all n teachers' across pages. Twelve fresh pending
 * teachers, found by their shared address prefix, so the set is exactly theirs. (The demo's licences have no
 * twelve seats to spare for a test; the server and component tests cover a licence given to all of them.)
 */
test('filters, Select all n teachers across pages, a welcome e-mail to all of them and a licence change sent as filters', async ({ page, organisation, organisations }) => {
  const org = await changeableOrganisation(page, organisations, organisation);
  const emails = uniqueEmails('selall', 12);
  const prefix = emails[0]!.slice(0, emails[0]!.lastIndexOf('-') + 1);
  const imported = await importByApi(page, org.id, emails);

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

    // 'Who has not signed up yet': the welcome e-mail goes to all twelve, the two on page 2 included.
    const email = await teachers.applyBulk('Send welcome email', 'Review message details');
    await email!.getByRole('button', { name: 'Next' }).click();
    const confirm = teachers.dialog('Confirm recipients and send');
    await expect(confirm.getByText('This email will be sent to 12 teachers:')).toBeVisible();
    await expect(confirm.getByText(emails[11]!)).toBeVisible();
    await teachers.expectAccessible({ include: '[role="dialog"]', label: 'confirm twelve recipients' });
    await confirm.getByRole('button', { name: 'Send' }).click();
    await expect(teachers.dialog('Your message has been sent').getByText('Sent to 12 teachers.')).toBeVisible();
    await teachers.dialog('Your message has been sent').getByRole('button', { name: 'Done' }).click();
    await expect(teachers.bulkBar()).toHaveCount(0);

    // A licence change for all of them goes as the filters and the count; the confirmation names the count.
    await page.getByRole('checkbox', { name: 'Select all teachers on this page' }).check();
    await teachers.selectAllMatching(12).click();
    const bulk = page.waitForRequest((r) => r.url().endsWith('/members/teachers/bulk') && r.method() === 'POST');
    const remove = await teachers.applyBulk('Remove license', 'Remove license');
    await expect(remove!.getByText('Remove the license from 12 teachers?')).toBeVisible();
    await remove!.getByRole('button', { name: 'Remove' }).click();
    expect((await bulk).postDataJSON()).toEqual({ action: 'remove-license', selection: { filter: { search: prefix, signedUp: 'no' }, expectedCount: 12 } });
    // None of the fresh teachers held a licence: nobody changed, and the notice says so.
    await expect(page.getByText('License removed from 0 teachers')).toBeVisible();
    await teachers.expectAccessible({ label: 'after the bulk change' });
  } finally {
    await revokeByApi(page, org.id, imported.map((m) => m.id));
  }
});
