import { authMessages, RESEND_CONFIRMATION_MS } from '@quire/core';
import { expect, test } from '../../fixtures.js';
import { EmailSignInPage, RegisterPage, SignInPage, VerifyEmailPage } from '../../pages/auth/sign-in-pages.js';
import { mailCount, waitForMail } from '../../support/mailbox.js';
import { readConsoleConfig } from '../../support/contracts.js';

const VERIFY_SUBJECT = /Verify your email/i;
const uniqueAddress = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.quire.test`;

test.describe('registration and e-mail verification', () => {
  test('register → verification mail → follow the link → signed in (no organisation yet)', async ({ page }) => {
    test.setTimeout(120_000);
    const address = uniqueAddress('new-admin');
    // The browser's clock runs on, but can be moved forward past the confirmation's 10 seconds below.
    await page.clock.install();
    await page.goto(`/sign-in/register/${encodeURIComponent(address)}`);
    const register = new RegisterPage(page, test.info());
    await register.waitUntilReady();
    await register.createAccountButton().click();
    // Nothing but the e-mail was filled in: the §5 messages.
    await expect(page.getByText('Please enter your name')).toHaveCount(2);
    await register.expectAccessible({ label: 'register with errors' });
    await register.fill({ firstName: 'Nell', lastName: 'Admin', password: 'secret-pass-1' });
    await register.createAccountButton().click();

    const verify = new VerifyEmailPage(page, test.info());
    await verify.waitUntilReady();
    await expect(page.getByText(address)).toBeVisible();
    await verify.expectAccessible();

    // Resend: a second mail and a confirmation (which disappears after 10 s, spec §9).
    const mail = await waitForMail(address, { subject: VERIFY_SUBJECT });
    await verify.resendButton().click();
    await expect(verify.resendConfirmation()).toBeVisible();
    await waitForMail(address, { subject: VERIFY_SUBJECT, skip: 1 });
    await page.clock.fastForward(RESEND_CONFIRMATION_MS);
    await expect(verify.resendConfirmation()).toBeHidden();

    // Follow the (first) link: the server verifies and sends the browser back to the verify page, which
    // finds the e-mail verified and goes on to sign-in; with no organisation the user is signed out.
    const link = mail.links.find((l) => l.includes('/identity/verify-email'));
    expect(link).toBeDefined();
    await page.goto(link!);
    const signIn = new SignInPage(page, test.info());
    await signIn.waitUntilReady();
    await expect(signIn.error()).toHaveText(authMessages.noOrganisations);
  });

  test('an existing address offers Sign in instead', async ({ page, demoAdmin }) => {
    await page.goto(`/sign-in/register/${encodeURIComponent(uniqueAddress('x'))}`);
    const register = new RegisterPage(page, test.info());
    await register.waitUntilReady();
    await register.fill({ email: demoAdmin.email, firstName: 'Demo', lastName: 'Admin', password: 'whatever-1' });
    await register.createAccountButton().click();
    await expect(register.error()).toBeVisible();
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    const emailPage = new EmailSignInPage(page, test.info());
    await emailPage.waitUntilReady();
    await expect(emailPage.passwordInput()).toBeVisible();
  });

  test('an unverified account signing in is sent to "Verify your email"; Back returns to e-mail sign-in', async ({ page, request }) => {
    const address = uniqueAddress('unverified');
    const origin = process.env.E2E_BASE_URL ?? '';
    const created = await request.post('/auth/email', {
      headers: { origin },
      form: { email: address, password: 'secret-pass-1', displayName: 'Una Verified', isTeacher: 'true', registrationAttempt: 'true' },
    });
    expect(created.status()).toBe(200);
    const emailPage = await new EmailSignInPage(page, test.info()).goto();
    await emailPage.signIn(address, 'secret-pass-1');
    const verify = new VerifyEmailPage(page, test.info());
    await verify.waitUntilReady();
    await expect(page.getByText(address)).toBeVisible();
    await verify.backButton().click();
    await emailPage.waitUntilReady();
    expect(mailCount(address, VERIFY_SUBJECT)).toBeGreaterThanOrEqual(1);
  });

  test('a used verification link says so', async ({ page }) => {
    await page.goto('/sign-in/verify-email?error=invalid_token');
    const verify = new VerifyEmailPage(page, test.info());
    await verify.waitUntilReady();
    await expect(verify.error()).toContainText('not valid or was already used');
  });

  test('sign-up is refused for an address not allowed as a teacher', async ({ page }) => {
    // The provider's own staff domain cannot sign up as admins (docs/identity.md).
    const config = await readConsoleConfig(page);
    await page.goto('/sign-in/register');
    const register = new RegisterPage(page, test.info());
    await register.waitUntilReady();
    await register.fill({ email: `staff-${Date.now()}@${config.providerEmailDomain}`, firstName: 'Sta', lastName: 'Ff', password: 'secret-pass-1' });
    await register.createAccountButton().click();
    await expect(register.error()).toHaveText(authMessages.signUpAsAdminRefused);
  });
});
