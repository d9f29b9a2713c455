import type { APIRequestContext } from '@playwright/test';
import { authMessages, validationMessages } from '@quire/core';
import { expect, test } from '../../fixtures.js';
import { EmailSignInPage, OrganisationPickerPage, RegisterPage, SignInPage } from '../../pages/auth/sign-in-pages.js';

test.describe('sign-in with e-mail', () => {
  test('/sign-in offers Google, Office 365 and e-mail with the terms line', async ({ page }) => {
    const signIn = await new SignInPage(page, test.info()).goto();
    await expect(signIn.googleButton()).toBeVisible();
    await expect(signIn.office365Button()).toBeVisible();
    await expect(signIn.emailLink()).toBeVisible();
    await expect(signIn.termsLine()).toBeVisible();
    await signIn.emailLink().click();
    await new EmailSignInPage(page, test.info()).waitUntilReady();
  });

  test('the demo admin signs in, picks an organisation and lands on its home', async ({ page, demoAdmin }) => {
    const emailPage = await new EmailSignInPage(page, test.info()).goto();
    await emailPage.emailInput().fill(demoAdmin.email);
    await emailPage.nextButton().click();
    // A password account: the password field is added and the button reads 'Sign in'.
    await expect(emailPage.passwordInput()).toBeVisible();
    await expect(emailPage.nextButton()).toHaveCount(0);
    await emailPage.expectAccessible({ label: 'password step' });
    await emailPage.passwordInput().fill(demoAdmin.password);
    await emailPage.signInButton().click();

    const picker = new OrganisationPickerPage(page, test.info());
    await picker.waitUntilReady();
    // The form starts in its first field.
    await expect(picker.select()).toBeFocused();
    await picker.expectAccessible();
    await expect(picker.submitButton()).toBeDisabled();
    await picker.select().click();
    const names = await page.getByRole('option').allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(2);
    await page.getByRole('option', { name: names[1] }).click();
    await expect(picker.submitButton()).toBeEnabled();
    await picker.submitButton().click();
    await expect(page).toHaveURL(/^[^?]*\/[^/]+$/);
    await expect(page).not.toHaveURL(/sign-in/);
    expect(await page.evaluate(() => localStorage.getItem('BC_ORG'))).toBe(decodeURIComponent(new URL(page.url()).pathname.slice(1)));
  });

  test('a deep link is remembered through sign-in and the picker preselects its organisation', async ({ page, demoAdmin, request }) => {
    // Find an organisation id by signing in through the API in a separate request context.
    const organisations = await organisationsOfDemoAdmin(request, demoAdmin);
    const target = organisations[organisations.length - 1];
    expect(target).toBeDefined();
    await page.goto(`/${target!.id}/teachers`);
    const signIn = new SignInPage(page, test.info());
    await signIn.waitUntilReady();
    await expect(page).toHaveURL(/\/sign-in$/);
    await signIn.emailLink().click();
    const emailPage = new EmailSignInPage(page, test.info());
    await emailPage.waitUntilReady();
    await emailPage.signIn(demoAdmin.email, demoAdmin.password);
    const picker = new OrganisationPickerPage(page, test.info());
    await picker.waitUntilReady();
    await expect(picker.select()).toHaveValue(target!.name);
    await picker.submitButton().click();
    await expect(page).toHaveURL(new RegExp(`/${target!.id}/teachers$`));
  });

  test('validation messages show after the first attempt, and the server refuses a wrong password', async ({ page, demoAdmin }) => {
    const emailPage = await new EmailSignInPage(page, test.info()).goto();
    await expect(page.getByText(validationMessages.emailRequired)).toHaveCount(0);
    await emailPage.nextButton().click();
    await expect(page.getByText(validationMessages.emailRequired)).toBeVisible();
    await emailPage.emailInput().fill('not an address');
    await expect(page.getByText(validationMessages.emailInvalid)).toBeVisible();
    await emailPage.emailInput().fill(demoAdmin.email);
    await emailPage.nextButton().click();
    await emailPage.signInButton().click();
    await expect(page.getByText(validationMessages.passwordRequired)).toBeVisible();
    await emailPage.passwordInput().fill('wrong-password-1');
    await emailPage.signInButton().click();
    await expect(emailPage.error()).toHaveText(authMessages.invalidCredentials);
  });

  test('an address without an account goes to Create account', async ({ page }) => {
    const emailPage = await new EmailSignInPage(page, test.info()).goto();
    const address = `nobody-${Date.now()}@e2e.quire.test`;
    await emailPage.emailInput().fill(address);
    await emailPage.nextButton().click();
    const register = new RegisterPage(page, test.info());
    await register.waitUntilReady();
    await expect(page).toHaveURL(new RegExp(`/sign-in/register/${encodeURIComponent(address)}$`));
    await expect(page.getByRole('textbox', { name: /^Email/ })).toHaveValue(address);
  });

  test('sign-out ends the session and forgets the organisation', async ({ page, demoAdmin }) => {
    const emailPage = await new EmailSignInPage(page, test.info()).goto();
    await emailPage.signIn(demoAdmin.email, demoAdmin.password);
    const picker = new OrganisationPickerPage(page, test.info());
    await picker.waitUntilReady();
    await picker.select().click();
    await page.getByRole('option').first().click();
    await picker.submitButton().click();
    await expect(page).not.toHaveURL(/sign-in/);
    const home = page.url();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await new SignInPage(page, test.info()).waitUntilReady();
    expect(await page.evaluate(() => localStorage.getItem('BC_ORG'))).toBeNull();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === '__admin_session')).toBeUndefined();
    // The console is closed again.
    await page.goto(home);
    await new SignInPage(page, test.info()).waitUntilReady();
  });
});

/** The demo admin's organisations, read with a session of a separate API sign-in. */
async function organisationsOfDemoAdmin(
  request: APIRequestContext,
  admin: { email: string; password: string },
): Promise<Array<{ id: string; name: string }>> {
  const origin = process.env.E2E_BASE_URL ?? '';
  const token = await request.post('/auth/email', { headers: { origin }, form: { email: admin.email, password: admin.password, isTeacher: 'true' } });
  expect(token.status()).toBe(200);
  const { token: custom } = (await token.json()) as { token: string };
  expect((await request.post('/identity/one-time-token/verify', { headers: { origin }, data: { token: custom } })).status()).toBe(200);
  const answer = await request.post('/graphql', { headers: { origin }, data: { query: 'query getOrganisations { getOrganisations { id name } }' } });
  const body = (await answer.json()) as { data: { getOrganisations: Array<{ id: string; name: string }> } };
  return body.data.getOrganisations;
}
