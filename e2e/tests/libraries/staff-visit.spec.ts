import { join } from 'node:path';
import { teacherMessages } from '@quire/core';
import { signInOnce, type DemoOrganisation } from '../../fixtures/auth.js';
import { expect, test as base } from '../../fixtures.js';
import { TeacherLibraryDialogs } from '../../pages/teacher-library-dialogs.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { demoStaff } from '../../support/env.js';
import { listTeachers } from '../teachers/teachers-api.js';
import { findTeacherWith, visitable } from './libraries-api.js';

/**
 * A provider-staff visit: the demo's staff admin (support@ PROVIDER_EMAIL_DOMAIN, 'Quire Support')
 * visits a teacher's library in Maple Grove for support, and does not become one of the school's teachers.
 */
const STAFF_SCHOOL = 'Maple Grove High School';

const test = base.extend<{ staffOrganisation: DemoOrganisation }, { staffState: { file: string; organisation: DemoOrganisation } }>({
  staffState: [
    async ({ browser }, use, workerInfo) => {
      const file = join(workerInfo.project.outputDir, '.auth', `staff-visit-${workerInfo.workerIndex}.json`);
      await use(await signInOnce(browser, file, demoStaff, STAFF_SCHOOL));
    },
    { scope: 'worker' },
  ],
  storageState: ({ staffState }, use) => use(staffState.file),
  staffOrganisation: ({ staffState }, use) => use(staffState.organisation),
});

test("a staff visit for support does not add 'Quire Support' to the school's teachers", async ({ page, context, staffOrganisation: org }) => {
  const config = (await (await page.request.get('/api/console-config')).json()) as { appUrl: string };
  const appRoot = config.appUrl.replace(/\/$/, '');
  // The product's app: the e2e run's stand-in server (support/auth-peers.ts) answers with its page.
  const before = await listTeachers(page, org.id);
  const { teacher, libraries } = await findTeacherWith(page, org.id, (_t, l) => l.unarchived.some((x) => visitable(x) && !x.joined));
  const target = libraries.unarchived.find((x) => visitable(x) && !x.joined);
  if (!target) throw new Error('a library to visit');

  const teachers = await new TeachersPage(page, test.info(), org.id).goto();
  await teachers.search(teacher.email);
  const dialogs = new TeacherLibraryDialogs(page, test.info());
  const name = teacher.displayName.trim() || teacher.email;
  await teachers.rowAction(teacher.email, 'View Profile', `${name}’s libraries`);
  await dialogs.visitButton(target.name).click();
  const arrived = context.waitForEvent('response', (r) => r.url().startsWith(`${appRoot}/library/${target.id}`));
  await dialogs.chooseReason('Provide teacher support');
  await (await arrived).frame().page().close();
  await page.keyboard.press('Escape');
  await expect(dialogs.viewer(name)).toHaveCount(0);

  // The staff address is nowhere in the Teachers list, and the total is what it was.
  await teachers.search(demoStaff.email);
  await expect(page.getByText(teacherMessages.notFound)).toBeVisible();
  await teachers.expectAccessible({ label: 'teachers, staff searched' });
  await teachers.search('Quire Support');
  await expect(page.getByText(teacherMessages.notFound)).toBeVisible();
  expect((await listTeachers(page, org.id)).total).toBe(before.total);
});
