import { authMessages } from '@quire/core';
import { expect, test } from '../../fixtures.js';
import { EmailSignInPage, ForgottenPasswordPage, SignInPage } from '../../pages/auth/sign-in-pages.js';
import { waitForMail } from '../../support/mailbox.js';

test('forgotten password → mail → reset → sign in with the new password', async ({ page, request }) => {
  test.setTimeout(120_000);
  const origin = process.env.E2E_BASE_URL ?? '';
  const address = `forgetful-${Date.now()}@e2e.quire.test`;
  const created = await request.post('/auth/email', {
    headers: { origin },
    form: { email: address, password: 'old-password-1', displayName: 'Fay Getful', isTeacher: 'true', registrationAttempt: 'true' },
  });
  expect(created.status()).toBe(200);
  // Verify the account through its mail first, so the final sign-in reaches the organisation check.
  const verification = await waitForMail(address, { subject: /Verify/i });
  await page.goto(verification.links.find((l) => l.includes('/identity/verify-email'))!);
  await page.context().clearCookies();

  const emailPage = await new EmailSignInPage(page, test.info()).goto();
  await emailPage.emailInput().fill(address);
  await emailPage.nextButton().click();
  await emailPage.forgottenPasswordLink().click();
  const recover = new ForgottenPasswordPage(page, test.info());
  await recover.waitUntilReady();
  await expect(recover.emailInput()).toHaveValue(address);
  await recover.sendButton().click();
  await expect(recover.confirmation()).toBeVisible();
  await recover.expectAccessible({ label: 'sent confirmation' });

  const mail = await waitForMail(address, { subject: /password/i });
  const link = mail.links.find((l) => l.includes('/auth/reset-password'));
  expect(link).toBeDefined();
  await page.goto(link!);
  // The server's own small reset page (docs/identity.md).
  await page.getByLabel('New password').fill('new-password-2');
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByRole('heading', { name: 'Your password has been changed' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();

  await emailPage.waitUntilReady();
  await emailPage.emailInput().fill(address);
  await emailPage.nextButton().click();
  await emailPage.passwordInput().fill('old-password-1');
  await emailPage.signInButton().click();
  await expect(emailPage.error()).toHaveText(authMessages.invalidCredentials);
  await emailPage.passwordInput().fill('new-password-2');
  await emailPage.signInButton().click();
  // Signed in; this new account administers nothing, so it is signed out again with the §8 text.
  const signIn = new SignInPage(page, test.info());
  await signIn.waitUntilReady();
  await expect(signIn.error()).toHaveText(authMessages.noOrganisations);
});

test('Recover password: Cancel returns to sign-in and the address is checked', async ({ page }) => {
  const recover = await new ForgottenPasswordPage(page, test.info()).goto();
  await recover.sendButton().click();
  await expect(page.getByText('Please enter your email address')).toBeVisible();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await new SignInPage(page, test.info()).waitUntilReady();
});
