import type { Download } from '@playwright/test';
import { notEnoughLicensesMessage } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { changeableOrganisation, findTeacher, importByApi, listLicenses, listTeachers, restoreLicense, uniqueEmails } from './teachers-api.js';

test.describe('Licences and student accounts', () => {
  test('assigns a licence from the row menu by keyboard, then removes it', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const license = (await listLicenses(page, org.id)).find((l) => !l.applyToAll && l.available > 0);
    if (!license) throw new Error('the demo organisation has a licence with seats');
    const { members } = await listTeachers(page, org.id, { pageSize: 100 });
    const teacher = members.find((m) => !m.pending && m.license === null);
    if (!teacher) throw new Error('the demo organisation has a signed-up teacher without a licence');
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(teacher.email);
    const row = teachers.teacherRow(teacher.email);
    try {
      await teachers.rowMenuButton(teacher.email).focus();
      await page.keyboard.press('Enter');
      await expect(teachers.menuItem('Assign license')).toBeVisible();
      await teachers.expectAccessible({ include: '[role="menu"]', label: 'row menu' });
      await teachers.menuItem('Assign license').focus();
      await page.keyboard.press('ArrowRight');
      await expect(teachers.menuItem(license.name)).toBeFocused();
      await page.keyboard.press('Enter');
      const dialog = teachers.dialog('Assign license');
      await expect(dialog).toBeVisible();
      await teachers.expectAccessible({ include: '[role="dialog"]', label: 'assign licence' });
      await expect(dialog.getByRole('button', { name: 'Assign' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(row).toContainText(license.name);
      expect((await findTeacher(page, org.id, teacher.email))?.license?.id).toBe(license.id);

      const remove = await teachers.rowAction(teacher.email, 'Remove license', 'Remove license');
      await remove!.getByRole('button', { name: 'Remove' }).click();
      await expect(row.getByText('None')).toBeVisible();
      expect((await findTeacher(page, org.id, teacher.email))?.license).toBeNull();
    } finally {
      await restoreLicense(page, org.id, teacher.id, null);
    }
  });

  test('refuses to assign more licences than are available', async ({ page, organisation }) => {
    const full = (await listLicenses(page, organisation.id)).filter((l) => !l.applyToAll).sort((a, b) => a.available - b.available)[0];
    if (!full) throw new Error('the demo organisation has licences');
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.pageSizeSelect().click();
    await page.getByRole('option', { name: '100', exact: true }).click();
    await expect(teachers.rows()).toHaveCount(100);
    const { members } = await listTeachers(page, organisation.id, { pageSize: 100 });
    const needed = members.filter((m) => m.license?.id !== full.id).length;
    test.skip(needed <= full.available, 'every licence has room for the first hundred teachers');
    await teachers.table().getByRole('checkbox', { name: 'Select all teachers on this page' }).check();
    await expect(teachers.bulkBar()).toContainText('100 teachers selected');
    await teachers.applyBulk(`Assign ${full.name} license`);
    await expect(teachers.notification(notEnoughLicensesMessage(full.bookQuota, Math.max(0, full.available)))).toBeVisible();
    await expect(teachers.dialog()).toHaveCount(0);
  });

  test('switches teachers to students one after another, showing why one could not be switched', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const [pendingEmail] = uniqueEmails('student', 1) as [string];
    await importByApi(page, org.id, [pendingEmail]);
    const { members } = await listTeachers(page, org.id, { pageSize: 100, sort: 'email', dir: 'desc' });
    const signedUp = members.find((m) => !m.pending && m.userId && !m.email.includes('admin'));
    if (!signedUp) throw new Error('the demo organisation has signed-up teachers');
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();

    // Selection is kept across searches.
    await teachers.search(pendingEmail);
    await teachers.selectRow(pendingEmail).check();
    await teachers.search(signedUp.email);
    await teachers.selectRow(signedUp.email).check();
    await expect(teachers.bulkBar()).toContainText('2 teachers selected');
    const dialog = await teachers.applyBulk('Switch to student', 'Switch to student');
    await dialog!.getByRole('button', { name: 'Switch to student' }).click();
    await expect(dialog!.getByRole('row', { name: new RegExp(signedUp.email) })).toContainText('Switched');
    await expect(dialog!.getByRole('row', { name: new RegExp(pendingEmail) })).toContainText("hasn't signed up yet");
    await teachers.expectAccessible({ include: '[role="dialog"]', label: 'switch results' });
    await dialog!.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText('No teachers found')).toBeVisible();
    expect(await findTeacher(page, org.id, signedUp.email)).toBeNull();
  });

  test('exports the current page or every teacher as CSV', async ({ page, organisation }) => {
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    const { total } = await listTeachers(page, organisation.id);
    const dialog = await teachers.openDialog(teachers.exportButton(), 'Export as CSV');
    await dialog.getByRole('radio', { name: /^Current page/ }).check();
    let download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export' }).click();
    let file = await download;
    expect(file.suggestedFilename()).toBe('teachers.csv');
    let text = (await readDownload(file)).replace(/^\uFEFF/, '');
    let lines = text.trim().split(/\r\n/);
    // The spec's columns; Roster role last once a OneRoster import has rostered teachers of this organisation (the
    // rostering spec may have, on the same demo data, before this one).
    expect(lines[0]).toMatch(/^Email,Name,Signed up,License,Certification(,Roster role)?$/);
    expect(lines).toHaveLength(11);

    const again = await teachers.openDialog(teachers.exportButton(), 'Export as CSV');
    await again.getByRole('radio', { name: /^All teachers/ }).check();
    download = page.waitForEvent('download');
    await again.getByRole('button', { name: 'Export' }).click();
    file = await download;
    text = (await readDownload(file)).replace(/^\uFEFF/, '');
    lines = text.trim().split(/\r\n/);
    expect(lines).toHaveLength(total + 1);
  });
});

async function readDownload(download: Download): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
