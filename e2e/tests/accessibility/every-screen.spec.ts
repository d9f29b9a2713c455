import { expect, test } from '../../fixtures/auth.js';
import { EmailSignInPage, ForgottenPasswordPage, RegisterPage, SignInPage } from '../../pages/auth/sign-in-pages.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { AnalyticsPage } from '../../pages/analytics-page.js';
import { LicensesPage } from '../../pages/licenses-page.js';
import { PortfoliosPage } from '../../pages/portfolios-page.js';
import { ResourcesPage } from '../../pages/resources-page.js';
import { ImageSearchPage, LmsPage, ManageAppsPage } from '../../pages/settings-pages.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { listTeachers } from '../teachers/teachers-api.js';

/**
 * WCAG 2.1 AA on every signed-in screen and the sign-in forms, beyond what axe reports:
 * each page object's goto() and openDialog() run axe and the checks of support/beyond-axe.ts (decorative
 * SVGs hidden or named, e-mail fields with autocomplete="email", accessible names containing the visible
 * text). docs/console-shell.md lists what was audited by hand.
 */
test.describe('Every screen, beyond axe', () => {
  test('the dashboard, Teachers with its menus and dialogs, and Admin', async ({ page, organisation }) => {
    test.slow();
    await new LicensesPage(page, test.info(), organisation.id).goto();
    // The user card: one button, named by the name it shows.
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: /choose organisation/ })).toBeVisible();

    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    const [first, second] = (await listTeachers(page, organisation.id, { pageSize: 10 })).members;
    if (!first || !second) throw new Error('the demo school has teachers');
    await teachers.openRowMenu(first.email);
    await page.keyboard.press('Escape');
    await teachers.selectRow(first.email).check();
    await teachers.selectRow(second.email).check();
    await teachers.expectAccessible({ label: 'teachers with a selection' });
    const email = await teachers.applyBulk('Request Certification', 'Review message details');
    if (!email) throw new Error('the e-mail dialog opens');
    await email.getByRole('button', { name: 'Next' }).click();
    const confirm = teachers.dialog('Confirm recipients and send');
    // The whole e-mail, as it will be sent, is shown before Send.
    await expect(confirm.getByRole('region', { name: /The email as .* receives it/ })).toContainText('Subject:');
    await teachers.expectAccessible({ include: '[role="dialog"]', label: 'the whole e-mail before Send' });
    await confirm.getByRole('button', { name: 'Back' }).click();
    await page.keyboard.press('Escape');

    const admins = await new AdminsPage(page, test.info(), organisation.id).goto();
    await admins.openDialog(admins.addButton(), 'Add admins');
    await page.keyboard.press('Escape');
  });

  test('Analytics, Portfolios, Resources, LMS, Manage Apps and Image Search', async ({ page, organisation, organisations }) => {
    // Six screens, each checked as it loads.
    test.slow();
    await new AnalyticsPage(page, test.info(), organisation.id).goto();
    const withPortfolios = organisations.find((o) => o.name.startsWith('Oakwood')) ?? organisation;
    await new PortfoliosPage(page, test.info(), withPortfolios.id).goto();
    await new ResourcesPage(page, test.info(), organisation.id).goto();
    await new LmsPage(page, test.info(), organisation.id).goto();
    const apps = await new ManageAppsPage(page, test.info(), organisation.id).goto();
    await apps.openDialog(apps.privacyButton('Canva'), /Canva/);
    await page.keyboard.press('Escape');
    await new ImageSearchPage(page, test.info(), organisation.id).goto();
  });

  test('the sign-in forms', async ({ browser }) => {
    // Signed out: the project's saved sign-in would otherwise apply to this context too.
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    try {
      const signIn = await new SignInPage(page, test.info()).goto();
      await expect(page.getByRole('link', { name: /Terms of Service/ })).toHaveAttribute('href', /^https?:\/\//);
      await expect(page.getByRole('link', { name: /Privacy Policy/ })).toHaveAttribute('href', /^https?:\/\//);
      await expect(signIn.termsLine()).toBeVisible();
      await new EmailSignInPage(page, test.info()).goto();
      await new RegisterPage(page, test.info()).goto();
      await new ForgottenPasswordPage(page, test.info()).goto();
    } finally {
      await context.close();
    }
  });
});
