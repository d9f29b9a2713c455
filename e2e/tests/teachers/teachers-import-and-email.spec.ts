import { invalidEmailsText, readyToImportText } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { waitForMail } from '../../support/mailbox.js';
import { changeableOrganisation, findTeacher, importByApi, revokeByApi, uniqueEmails } from './teachers-api.js';

test.describe('Importing and e-mailing teachers', () => {
  test('imports teachers with a licence after the list is validated', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const [withLicense, without] = uniqueEmails('import', 2) as [string, string];
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();

    let dialog = await teachers.startImport(`${withLicense.toUpperCase()}\n${without}; not-an-address`);
    await expect(dialog.getByText(readyToImportText(2))).toBeVisible();
    await expect(dialog.getByText(invalidEmailsText(1))).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();

    await dialog.getByRole('button', { name: 'Back' }).click();
    await dialog.getByRole('textbox', { name: /Teacher email addresses/ }).fill(`${withLicense}, ${without}`);
    await dialog.getByRole('button', { name: 'Next' }).click();
    dialog = teachers.dialog('Import Teachers');
    const licenseName = ((await dialog.getByRole('combobox', { name: 'License to assign' }).inputValue()) ?? '').replace(/ \(\d+ available\)$/, '');
    await dialog.getByRole('checkbox', { name: withLicense }).check();
    await dialog.getByRole('button', { name: 'Import' }).click();
    await expect(teachers.notification('2 teachers imported')).toBeVisible();
    await expect(dialog).toBeHidden();

    await teachers.search(withLicense);
    const row = teachers.teacherRow(withLicense);
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell', { name: 'No', exact: true })).toBeVisible();
    await expect(row).toContainText(licenseName);
    expect((await findTeacher(page, org.id, without))?.license).toBeNull();
  });

  test('sends the welcome e-mail through the three steps', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const [email] = uniqueEmails('welcome', 1) as [string];
    await importByApi(page, org.id, [email]);
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(email);
    const dialog = await teachers.rowAction(email, 'Send welcome email', 'Review message details');
    // The fixed subject is drawn as read-only, not like the message the admin can edit.
    const subject = dialog!.getByRole('textbox', { name: 'Subject' });
    await expect(subject).toHaveAttribute('readonly', '');
    // Its fill (the Message has focus, so its border is the focus colour: the fill is what tells them apart at rest).
    const look = (field: typeof subject) => field.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await look(subject), 'the Subject looks like an editable field').not.toBe(await look(dialog!.getByRole('textbox', { name: 'Message' })));
    await teachers.sendEmailFrom(dialog!, 'Welcome aboard: your account is waiting.');
    await teachers.dialog('Your message has been sent').getByRole('button', { name: 'Done' }).click();
    // The run's own SMTP peer receives the mail when the run started the server.
    if (process.env.E2E_MAIL_DIR) {
      const mail = await waitForMail(email);
      expect(mail.text).toContain('Welcome aboard: your account is waiting.');
      expect(mail.links.some((link) => link.endsWith(`/sign-in/register/${encodeURIComponent(email)}`) || link.endsWith(`/sign-in/register/${email}`))).toBe(true);
    }
  });

  test('requests certification for selected teachers with the Preview button', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const emails = uniqueEmails('certify', 2);
    await importByApi(page, org.id, emails);
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(emails[0]!.replace(/-0@.*/, ''));
    await expect(teachers.rows()).toHaveCount(2);
    await teachers.table().getByRole('checkbox', { name: 'Select all teachers on this page' }).check();
    await expect(teachers.bulkBar()).toContainText('2 teachers selected');
    await teachers.chooseBulkAction('Request Certification');
    await expect(teachers.bulkBar().getByRole('button', { name: 'Preview' })).toBeVisible();
    const dialog = await teachers.openDialog(teachers.bulkBar().getByRole('button', { name: 'Preview' }), 'Review message details');
    await teachers.sendEmailFrom(dialog);
  });

  test('marks a removed teacher as active', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const [email] = uniqueEmails('inactive', 1) as [string];
    const [member] = await importByApi(page, org.id, [email]);
    await revokeByApi(page, org.id, [member!.id]);
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.openTab('Inactive');
    await teachers.search(email);
    await expect(teachers.teacherRow(email)).toBeVisible();
    await teachers.rowAction(email, 'Mark as Active');
    await expect(page.getByText('No teachers found')).toBeVisible();
    await teachers.openTab('Active');
    await expect(teachers.teacherRow(email)).toBeVisible();
  });
});
