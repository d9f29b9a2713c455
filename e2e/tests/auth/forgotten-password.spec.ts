import { authMessages } from '@quire/core';
import { expect, test } from '../../fixtures.js';
import { EmailSignInPage, ForgottenPasswordPage, SignInPage } from '../../pages/auth/sign-in-pages.js';
import { checkAccessibility } from '../../support/axe.js';
import { readConsoleConfig } from '../../support/contracts.js';
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
  // The server's own reset page (docs/identity.md), in the console's sign-in frame: the product's name, the
  // title, a labelled field with its rule, focus in the field, a way back; checked with axe like every screen.
  const { productName } = await readConsoleConfig(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expect(page.locator('main').getByText(productName, { exact: true })).toBeVisible();
  await expect(page.getByLabel('New password')).toBeFocused();
  await expect(page.getByLabel('New password')).toHaveAccessibleDescription('At least 6 characters.');
  await expect(page.getByRole('link', { name: 'Back to sign in' })).toBeVisible();
  await checkAccessibility(page, test.info(), { label: 'reset password' });
  await page.keyboard.type('new-password-2');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Save password' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Your password has been changed' })).toBeVisible();
  await checkAccessibility(page, test.info(), { label: 'reset password done' });
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
