import { expect, test } from '../../fixtures/auth.js';
import { EmailSignInPage, ForgottenPasswordPage, RegisterPage } from '../../pages/auth/sign-in-pages.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { TeacherLibraryDialogs } from '../../pages/teacher-library-dialogs.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { findTeacherWith } from '../libraries/libraries-api.js';
import { listTeachers } from './teachers-api.js';

/**
 * Keyboard and focus: focus goes back to the control that opened a dialog or menu, a
 * dialog opens on its first field or primary action (never Close), tooltips show on keyboard focus and
 * never cover a dialog's Close button, sign-in forms start in their first field.
 */

const nameOf = (teacher: { displayName: string; email: string }) => teacher.displayName.trim() || teacher.email;

test.describe('Focus', () => {
  test('View Profile by keyboard opens on the tabs, its count tooltips stay clear of Close, and Escape returns to the row menu', async ({ page, organisation }) => {
    const { teacher } = await findTeacherWith(page, organisation.id, (_t, l) => l.unarchived.length > 0);
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.search(teacher.email);
    const menuButton = teachers.rowMenuButton(teacher.email);
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(teachers.menuItem('View Profile')).toBeVisible();
    await teachers.menuItem('View Profile').focus();
    await page.keyboard.press('Enter');

    const dialogs = new TeacherLibraryDialogs(page, test.info());
    const viewer = await dialogs.expectDialog(`${nameOf(teacher)}’s libraries`, 'viewer opened by keyboard');
    await expect(dialogs.tab('All')).toBeFocused();

    // Back to the Books count: its explanation shows on focus, below it, clear of the Close button.
    await page.keyboard.press('Shift+Tab');
    await expect(dialogs.count('Books')).toBeFocused();
    const tooltip = page.getByRole('tooltip');
    await expect(tooltip).toBeVisible();
    const [tip, close] = await Promise.all([tooltip.boundingBox(), viewer.getByRole('button', { name: 'Close' }).first().boundingBox()]);
    if (!tip || !close) throw new Error('the tooltip and the Close button have boxes');
    const overlap = tip.x < close.x + close.width && close.x < tip.x + tip.width && tip.y < close.y + close.height && close.y < tip.y + tip.height;
    expect(overlap, 'the tooltip covers the Close button').toBe(false);

    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
    await expect(menuButton).toBeFocused();
  });

  test('a menu closed with Escape, and a dialog cancelled, give focus back to their button', async ({ page, organisation }) => {
    const admins = await new AdminsPage(page, test.info(), organisation.id).goto();
    const add = admins.addButton();
    const dialog = await admins.openDialog(add, 'Add admins');
    // The dialog opens on its field, not on Close.
    await expect(dialog.getByRole('textbox', { name: /Email addresses/ })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(add).toBeFocused();

    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    const first = (await listTeachers(page, organisation.id)).members[0];
    if (!first) throw new Error('the demo school has teachers');
    const menuButton = teachers.rowMenuButton(first.email);
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(menuButton).toBeFocused();
  });

  test('the ambassador star’s tooltip shows on keyboard focus', async ({ page, organisation }) => {
    const { productName } = (await (await page.request.get('/api/console-config')).json()) as { productName: string };
    const { members } = await listTeachers(page, organisation.id, { pageSize: 100 });
    const ambassador = (members as Array<(typeof members)[number] & { isAmbassador?: boolean }>).find((m) => m.isAmbassador);
    test.skip(!ambassador, 'no ambassador among the first 100 teachers');
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.search(ambassador?.email ?? '');
    const star = teachers.teacherRow(ambassador?.email ?? '').getByRole('img', { name: `${productName} Ambassador` });
    await star.focus();
    await expect(page.getByRole('tooltip')).toHaveText(`${productName} Ambassador`);
  });

  test('sign-in forms start in their first field', async ({ browser }) => {
    // Signed out: the project's saved sign-in would otherwise apply to this context too.
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    try {
      const email = new EmailSignInPage(page, test.info());
      await page.goto(email.path);
      await email.waitUntilReady();
      await expect(email.emailInput()).toBeFocused();
      const register = new RegisterPage(page, test.info());
      await page.goto('/sign-in/register');
      await register.waitUntilReady();
      await expect(page.getByRole('textbox', { name: /^Email/ })).toBeFocused();
      const recover = new ForgottenPasswordPage(page, test.info());
      await page.goto(recover.path);
      await recover.waitUntilReady();
      await expect(recover.emailInput()).toBeFocused();
    } finally {
      await context.close();
    }
  });
});
