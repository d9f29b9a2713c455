import { formatOrdinalDate } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { TeacherLibraryDialogs } from '../../pages/teacher-library-dialogs.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { changeableOrganisation, findTeacher, importByApi, listTeachers, restoreLicense, revokeByApi, uniqueEmails } from '../teachers/teachers-api.js';
import { findTeacherWith, teacherLibraries } from './libraries-api.js';

const nameOf = (teacher: { displayName: string; email: string }) => teacher.displayName.trim() || teacher.email;
const owned = <T extends { isOwner: boolean; isPrivate: boolean }>(libraries: { unarchived: T[] }) => libraries.unarchived.filter((l) => l.isOwner && !l.isPrivate);

// These tests change libraries for good: each uses its own teachers of an organisation the other tests only read.
test.describe.configure({ mode: 'serial' });

test.describe('Manage Teacher Libraries and Remove teacher', () => {
  const used = new Set<string>();

  test('assigns every library to another teacher, then keeps the licence', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const { teacher, libraries } = await findTeacherWith(page, org.id, (t, l) => t.license !== null && owned(l).length > 0, used);
    used.add(teacher.email);
    const { members } = await listTeachers(page, org.id, { pageSize: 100, sort: 'name' });
    const receiver = members.find((m) => !m.pending && m.id !== teacher.id && !used.has(m.email) && !m.email.startsWith('admin@'));
    if (!receiver) throw new Error('a second signed-up teacher');
    used.add(receiver.email);

    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(teacher.email);
    const dialogs = new TeacherLibraryDialogs(page, test.info());
    const wizard = await teachers.rowAction(teacher.email, 'Manage Teacher Libraries', 'Manage Teacher Libraries');
    if (!wizard) throw new Error('the wizard opens');
    await dialogs.chooseAction(wizard, /assign libraries to a teacher/);
    await dialogs.expectDialog('Manage Teacher Libraries', 'wizard: choose the teacher');
    // Required: Assign without a target says so.
    await wizard.getByRole('button', { name: 'Assign' }).click();
    await expect(wizard.getByText('Please choose a teacher')).toBeVisible();
    await dialogs.pickTarget(wizard, 'Teacher', receiver.email, new RegExp(receiver.email.replace(/[.]/g, '\\.')));
    await wizard.getByRole('button', { name: 'Assign' }).click();

    const license = await dialogs.expectDialog('Manage License', 'Manage License');
    await license.getByRole('button', { name: 'Keep License' }).click();
    await expect(license.getByText(`${nameOf(teacher)}’s license stays active.`)).toBeVisible();
    await dialogs.expectDialog('Manage License', 'license kept');
    await license.getByRole('button', { name: 'Done' }).click();
    await expect(license).toHaveCount(0);

    const moved = owned(libraries).map((l) => l.id);
    expect(owned(await teacherLibraries(page, org.id, teacher.id))).toHaveLength(0);
    const receiverOwns = (await teacherLibraries(page, org.id, receiver.id)).unarchived.filter((l) => l.isOwner).map((l) => l.id);
    for (const id of moved) expect(receiverOwns).toContain(id);
    expect((await findTeacher(page, org.id, teacher.email))?.license?.id).toBe(teacher.license?.id);
  });

  test('archives and closes the libraries by keyboard, then revokes the premium licence', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const { teacher, libraries } = await findTeacherWith(page, org.id, (t, l) => t.license !== null && !t.license.applyToAll && owned(l).length > 0, used);
    used.add(teacher.email);
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(teacher.email);
    const dialogs = new TeacherLibraryDialogs(page, test.info());
    try {
      await teachers.openRowMenu(teacher.email);
      await teachers.menuItem('Manage Teacher Libraries').focus();
      await page.keyboard.press('Enter');
      const wizard = await dialogs.expectDialog('Manage Teacher Libraries', 'wizard: choose an action');
      // The first choice has the focus; arrows move between the three.
      await expect(wizard.getByRole('radio', { name: /assign libraries to a teacher/ })).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(wizard.getByRole('radio', { name: /Archive and close libraries/ })).toBeChecked();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(wizard.getByRole('button', { name: 'Next' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(wizard.getByText(/Published books stay active but become uneditable/)).toBeVisible();
      await wizard.getByRole('button', { name: 'Continue' }).press('Enter');

      const license = await dialogs.expectDialog('Manage License', 'Manage License after archive');
      await license.getByRole('button', { name: 'Revoke premium license' }).click();
      await expect(license.getByText(`${nameOf(teacher)}’s account has been downgraded to the free plan.`)).toBeVisible();
      await license.getByRole('button', { name: 'Done' }).click();

      const after = await teacherLibraries(page, org.id, teacher.id);
      expect(owned(after)).toHaveLength(0);
      for (const library of owned(libraries)) expect(after.archived.map((l) => l.id)).toContain(library.id);
      expect((await findTeacher(page, org.id, teacher.email))?.license).toBeNull();

      // The viewer lists them under Archived.
      await teachers.rowAction(teacher.email, 'View Profile', `${nameOf(teacher)}’s libraries`);
      await dialogs.tab('Archived').click();
      await expect(dialogs.librariesTable('Archived').locator('tbody tr')).toHaveCount(after.archived.length);
    } finally {
      await restoreLicense(page, org.id, teacher.id, teacher.license?.id ?? null);
    }
  });

  test('removes a pending teacher: they move to Inactive with the Removed date', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const [email] = uniqueEmails('remove', 1) as [string];
    await importByApi(page, org.id, [email]);
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(email);
    const dialog = await teachers.rowAction(email, 'Remove teacher', 'Remove teacher');
    await dialog!.getByRole('button', { name: 'Remove teacher' }).click();
    await expect(teachers.notification('1 teacher removed')).toBeVisible();
    await expect(teachers.teacherRow(email)).toHaveCount(0);
    await teachers.openTab('Inactive');
    await expect(teachers.teacherRow(email)).toContainText(formatOrdinalDate(new Date()));
  });

  test('an ordinary admin is offered bulk Remove teacher only for pending teachers', async ({ page, organisation, organisations }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    const [email] = uniqueEmails('delete', 1) as [string];
    const [pending] = await importByApi(page, org.id, [email]);
    const { members } = await listTeachers(page, org.id, { pageSize: 100, sort: 'name' });
    const signedUp = members.find((m) => !m.pending && !used.has(m.email) && !m.email.startsWith('admin@'));
    if (!signedUp || !pending) throw new Error('a signed-up teacher');
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    try {
      for (const address of [email, signedUp.email]) {
        await teachers.search(address);
        await teachers.selectRow(address).check();
      }
      // The demo admin is not provider staff: removing a signed-up teacher can only fail, so it is not offered.
      await teachers.bulkBar().getByRole('combobox', { name: 'Bulk Actions' }).click();
      await expect(page.getByRole('option', { name: 'Send welcome email' })).toBeVisible();
      await expect(page.getByRole('option', { name: 'Remove teacher' })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await teachers.search(signedUp.email);
      await teachers.selectRow(signedUp.email).uncheck();
      const dialog = await teachers.applyBulk('Remove teacher', 'Remove teacher');
      await dialog!.getByRole('button', { name: 'Remove teacher' }).click();
      await expect(dialog!).toHaveCount(0);
      expect((await findTeacher(page, org.id, signedUp.email))?.revokedAt).toBeNull();
      expect((await findTeacher(page, org.id, email, 'inactive'))?.revokedAt).not.toBeNull();
    } finally {
      await revokeByApi(page, org.id, [pending.id]).catch(() => undefined);
    }
  });
});
