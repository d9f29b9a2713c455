import { authMessages, libraryMessages } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { TeacherLibraryDialogs } from '../../pages/teacher-library-dialogs.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { demoAdmin } from '../../support/env.js';
import { bookCounts, findTeacherWith, teacherLibraries, visitable } from './libraries-api.js';
import { readConsoleConfig } from '../../support/contracts.js';

/** The teacher's name as the viewer's title shows it. */
const nameOf = (teacher: { displayName: string; email: string }) => teacher.displayName.trim() || teacher.email;

test.describe('Teacher library viewer and visits', () => {
  test('View Profile shows the teacher, the counts, My Books as Private, and both tabs', async ({ page, organisation }) => {
    const { teacher, libraries } = await findTeacherWith(page, organisation.id, (_t, l) => l.unarchived.length > 0);
    const counts = await bookCounts(page, organisation.id, teacher.id);
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.search(teacher.email);
    const dialogs = new TeacherLibraryDialogs(page, test.info());
    const viewer = await teachers.rowAction(teacher.email, 'View Profile', `${nameOf(teacher)}’s libraries`);
    if (!viewer) throw new Error('the viewer opens');
    await expect(viewer.getByText(teacher.email, { exact: true })).toBeVisible();
    await expect(viewer.getByText(organisation.name, { exact: true })).toBeVisible();
    // The All total counts My Books too.
    await expect(dialogs.count('Libraries')).toHaveAttribute('aria-label', new RegExp(`^Libraries: ${libraries.unarchived.length + 1}\\.`));
    await expect(dialogs.count('Books')).toHaveAttribute('aria-label', new RegExp(`^Books: ${counts.total}\\.`));
    await expect(dialogs.librariesTable('All').locator('tbody tr')).toHaveCount(libraries.unarchived.length + 1);
    const myBooks = dialogs.libraryRow('My Books');
    await expect(myBooks.getByText(libraryMessages.privateLibrary)).toBeVisible();
    await expect(myBooks.getByRole('cell', { name: String(counts.private), exact: true })).toBeVisible();
    await expect(myBooks.getByRole('button')).toHaveCount(0);

    // Keyboard: the tabs move with the arrow keys.
    await dialogs.tab('All').focus();
    await page.keyboard.press('ArrowRight');
    await expect(dialogs.tab('Archived')).toHaveAttribute('aria-selected', 'true');
    if (libraries.archived.length === 0) await expect(viewer.getByText(libraryMessages.noLibraries)).toBeVisible();
    else await expect(dialogs.librariesTable('Archived').locator('tbody tr')).toHaveCount(libraries.archived.length);
    await teachers.expectAccessible({ include: '[role="dialog"]', label: 'viewer, Archived tab' });

    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
  });

  test('Visit asks a reason the first time, opens the library in a new tab signed in with a single-use token, and asks no reason after', async ({ page, context, browser, organisation }) => {
    const base = process.env.E2E_BASE_URL ?? '';
    const config = await readConsoleConfig(page);
    const appRoot = config.appUrl.replace(/\/$/, '');
    // The product's app: the e2e run's stand-in server (support/auth-peers.ts) answers with its page.
    const { teacher, libraries } = await findTeacherWith(page, organisation.id, (_t, l) => l.unarchived.some((x) => visitable(x) && !x.joined));
    const target = libraries.unarchived.find((x) => visitable(x) && !x.joined);
    if (!target) throw new Error('a library to visit');

    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.search(teacher.email);
    const dialogs = new TeacherLibraryDialogs(page, test.info());
    await teachers.rowAction(teacher.email, 'View Profile', `${nameOf(teacher)}’s libraries`);
    await dialogs.visitButton(target.name).click();

    // The tab drops its opener before leaving for the product, so Chromium may swap it for a new page: follow the
    // navigation, not the page first opened.
    const arrived = context.waitForEvent('response', (r) => r.url().startsWith(`${appRoot}/library/${target.id}`));
    await dialogs.chooseReason('Other', 'End of term review');
    const response = await arrived;
    const tab = response.frame().page();
    expect(tab).not.toBe(page);
    await expect(tab.getByRole('heading', { name: 'Product app' })).toBeVisible();
    const landed = new URL(response.url());
    expect(landed.searchParams.get('organisationId')).toBe(organisation.id);
    const token = landed.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect((await teacherLibraries(page, organisation.id, teacher.id)).unarchived.find((l) => l.id === target.id)?.joined).toBe(true);

    // The product signs the admin in with the token it carries, once. Another browser: the console's
    // own session, which the whole worker shares, is left alone.
    const product = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const signIn = await product.request.post(`${base}/identity/one-time-token/verify`, { headers: { origin: base }, data: { token } });
      expect(signIn.status()).toBe(200);
      expect(((await signIn.json()) as { user: { email: string } }).user.email).toBe(demoAdmin.email.toLowerCase());
      const replay = await product.request.post(`${base}/identity/one-time-token/verify`, { headers: { origin: base }, data: { token } });
      expect(replay.status()).toBe(400);
      expect(await replay.json()).toMatchObject({ code: 'sign_in_link_used', message: authMessages.signInLinkUsed });
    } finally {
      await product.close();
    }
    await tab.close();

    // A library already joined opens straight away, with a new token.
    await expect(dialogs.viewer(nameOf(teacher))).toBeVisible();
    const arrivedAgain = context.waitForEvent('response', (r) => r.url().startsWith(`${appRoot}/library/${target.id}`));
    await dialogs.visitButton(target.name).click();
    const second = new URL((await arrivedAgain).url()).searchParams.get('token');
    expect(second).toBeTruthy();
    expect(second).not.toBe(token);
    await expect(dialogs.dialog('Reason for visit')).toHaveCount(0);
    for (const other of context.pages()) if (other !== page) await other.close();
  });

  test("a library the teacher only reads is never visited: students' disabled, private ones 'Private'", async ({ page, organisation }) => {
    const { teacher, libraries } = await findTeacherWith(page, organisation.id, (_t, l) => l.unarchived.some((x) => !visitable(x)));
    const other = libraries.unarchived.find((x) => !visitable(x));
    if (!other) throw new Error('a library that cannot be visited');
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.search(teacher.email);
    const dialogs = new TeacherLibraryDialogs(page, test.info());
    await teachers.rowAction(teacher.email, 'View Profile', `${nameOf(teacher)}’s libraries`);
    const row = dialogs.libraryRow(other.name);
    if (other.isPrivate) await expect(row.getByText(libraryMessages.privateLibrary)).toBeVisible();
    else if (other.role >= 900) await expect(row.getByRole('button', { name: /^Visit/ })).toHaveCount(0);
    else await expect(row.getByRole('button', { name: /^Visit/ })).toBeDisabled();
  });
});
