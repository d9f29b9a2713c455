import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { formatOrdinalDate, libraryMessages } from '@quire/core';
import { signInOnce, type DemoOrganisation } from '../../fixtures/auth.js';
import { expect, test as base } from '../../fixtures.js';
import { TeacherLibraryDialogs } from '../../pages/teacher-library-dialogs.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { demoStaff } from '../../support/env.js';
import type { AdminPage, Member, TeacherLibraries } from '@quire/core';
import { findTeacher, graphql, listTeachers } from '../teachers/teachers-api.js';
import { findTeacherWith, teacherLibraries } from './libraries-api.js';

/**
 * Delete account (spec §4, §6): only provider staff may remove teachers who signed up. The demo seeds a
 * staff admin (support@ PROVIDER_EMAIL_DOMAIN); these tests sign in as them in Cedar Hill Middle School,
 * the school the demo admin's tests never open, so what they delete touches no other test.
 */
const STAFF_SCHOOL = 'Cedar Hill Middle School';

const test = base.extend<{ staffOrganisation: DemoOrganisation }, { staffState: { file: string; organisation: DemoOrganisation } }>({
  staffState: [
    async ({ browser }, use, workerInfo) => {
      const file = join(workerInfo.project.outputDir, '.auth', `staff-${workerInfo.workerIndex}.json`);
      await use(await signInOnce(browser, file, demoStaff, STAFF_SCHOOL));
    },
    { scope: 'worker' },
  ],
  storageState: ({ staffState }, use) => use(staffState.file),
  staffOrganisation: ({ staffState }, use) => use(staffState.organisation),
});

test.describe.configure({ mode: 'serial' });

const nameOf = (teacher: Member) => teacher.displayName.trim() || teacher.email;
const ownedIds = (libraries: TeacherLibraries) => libraries.unarchived.filter((l) => l.isOwner && !l.isPrivate).map((l) => l.id);

async function adminEmails(page: Page, orgId: string): Promise<Set<string>> {
  const data = await graphql<{ getAdmins: { admins: Array<Pick<AdminPage['admins'][number], 'email'>> } }>(
    page,
    'query getAdmins($orgId: ID!) { getAdmins(orgId: $orgId, pageSize: 100) { admins { email } } }',
    { orgId },
  );
  return new Set(data.getAdmins.admins.map((a) => a.email));
}

/** A signed-up teacher who is not an admin (admins cannot be deleted) and has not been used yet. */
async function receiverFor(page: Page, orgId: string, used: Set<string>): Promise<Member> {
  const admins = await adminEmails(page, orgId);
  const { members } = await listTeachers(page, orgId, { pageSize: 100, sort: 'name' });
  const receiver = members.find((m) => !m.pending && !used.has(m.email) && !admins.has(m.email));
  if (!receiver) throw new Error('Cedar Hill has another signed-up teacher');
  used.add(receiver.email);
  return receiver;
}

async function deletableTeacher(page: Page, orgId: string, used: Set<string>): Promise<{ teacher: Member; owned: string[] }> {
  const admins = await adminEmails(page, orgId);
  const skip = new Set([...used, ...admins]);
  const { teacher, libraries } = await findTeacherWith(page, orgId, (_t, l) => ownedIds(l).length > 0, skip);
  used.add(teacher.email);
  return { teacher, owned: ownedIds(libraries) };
}

async function markActive(page: Page, orgId: string, memberIds: string[]): Promise<void> {
  await graphql(page, 'mutation grantMembership($orgId: ID!, $memberIds: [ID!]!) { grantMembership(orgId: $orgId, memberIds: $memberIds) { memberIds } }', {
    orgId,
    memberIds,
  });
}

test.describe('Delete account, as provider staff', () => {
  const used = new Set<string>();

  test('removes two signed-up teachers in bulk: their libraries go to a colleague, they move to Inactive, and Mark as Active brings one back', async ({
    page,
    staffOrganisation: org,
  }) => {
    const first = await deletableTeacher(page, org.id, used);
    const second = await deletableTeacher(page, org.id, used);
    const receiver = await receiverFor(page, org.id, used);

    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    for (const teacher of [first.teacher, second.teacher]) {
      await teachers.search(teacher.email);
      await teachers.selectRow(teacher.email).check();
    }
    const dialog = await teachers.applyBulk('Remove teacher', 'Remove teacher');
    if (!dialog) throw new Error('the delete dialog opens');
    const dialogs = new TeacherLibraryDialogs(page, test.info());
    await dialogs.chooseAction(dialog, /assign libraries to a teacher/i);
    await dialogs.pickTarget(dialog, 'Teacher', receiver.email, new RegExp(receiver.email.replace(/[.]/g, '\\.')));
    await dialog.getByRole('button', { name: 'Assign' }).click();

    // The warning names both, then the confirmation needs the box ticked.
    await dialogs.expectDialog('Remove teacher', 'delete account: warning');
    await expect(dialog.getByRole('list', { name: 'Teachers to delete' })).toContainText(nameOf(first.teacher));
    await expect(dialog.getByRole('list', { name: 'Teachers to delete' })).toContainText(nameOf(second.teacher));
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialogs.expectDialog('Remove teacher', 'delete account: confirmation');
    const remove = dialog.getByRole('button', { name: 'Permanently delete' });
    await expect(remove).toBeDisabled();
    await dialog.getByRole('checkbox', { name: libraryMessages.deleteConfirmation }).check();
    await remove.click();

    await expect(teachers.notification('2 teachers removed')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    // Nothing was left behind: the colleague owns every library, the two are Inactive with today's date.
    const receiverOwns = ownedIds(await teacherLibraries(page, org.id, receiver.id));
    for (const id of [...first.owned, ...second.owned]) expect(receiverOwns).toContain(id);
    await teachers.search(first.teacher.email);
    await expect(teachers.teacherRow(first.teacher.email)).toHaveCount(0);
    await teachers.openTab('Inactive');
    await expect(teachers.teacherRow(first.teacher.email)).toContainText(formatOrdinalDate(new Date()));
    expect((await findTeacher(page, org.id, second.teacher.email, 'inactive'))?.revokedAt).not.toBeNull();

    await teachers.rowAction(first.teacher.email, 'Mark as Active');
    await expect(page.getByText('No teachers found')).toBeVisible();
    await teachers.openTab('Active');
    await expect(teachers.teacherRow(first.teacher.email)).toBeVisible();
  });

  test('a transfer that fails part-way changes nothing; archiving instead then deletes the account', async ({ page, staffOrganisation: org }) => {
    const { teacher, owned } = await deletableTeacher(page, org.id, used);
    const receiver = await receiverFor(page, org.id, used);
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(teacher.email);
    const dialog = await teachers.rowAction(teacher.email, 'Remove teacher', 'Remove teacher');
    if (!dialog) throw new Error('the delete dialog opens');
    const dialogs = new TeacherLibraryDialogs(page, test.info());
    await dialogs.chooseAction(dialog, /assign libraries to a teacher/i);
    await dialogs.pickTarget(dialog, 'Teacher', receiver.email, new RegExp(receiver.email.replace(/[.]/g, '\\.')));
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('checkbox', { name: libraryMessages.deleteConfirmation }).check();

    // Meanwhile, someone removes the colleague: the transfer is refused and nothing moves.
    await graphql(page, 'mutation revokeMembership($orgId: ID!, $memberIds: [ID!]!) { revokeMembership(orgId: $orgId, memberIds: $memberIds) { memberIds } }', {
      orgId: org.id,
      memberIds: [receiver.id],
    });
    try {
      await dialog.getByRole('button', { name: 'Permanently delete' }).click();
      await expect(dialog.getByRole('alert')).toContainText(libraryMessages.reassignFailed);
      await expect(dialog.getByRole('alert')).toContainText('removed from the organisation');
      await dialogs.expectDialog('Remove teacher', 'delete account: transfer refused');
      expect(ownedIds(await teacherLibraries(page, org.id, teacher.id)).sort()).toEqual([...owned].sort());
      expect((await findTeacher(page, org.id, teacher.email))?.revokedAt).toBeNull();

      // Back, archive and close the libraries instead, and delete.
      await dialog.getByRole('button', { name: 'Back' }).click();
      await dialogs.chooseAction(dialog, /Archive and close libraries/);
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByRole('checkbox', { name: libraryMessages.deleteConfirmation }).check();
      await dialog.getByRole('button', { name: 'Permanently delete' }).click();
      await expect(teachers.notification('1 teacher removed')).toBeVisible();
      const after = await findTeacher(page, org.id, teacher.email, 'inactive');
      expect(after?.revokedAt).not.toBeNull();
      const libraries = await teacherLibraries(page, org.id, teacher.id);
      for (const id of owned) expect(libraries.archived.map((l) => l.id)).toContain(id);
    } finally {
      await markActive(page, org.id, [receiver.id]);
    }
  });
});
