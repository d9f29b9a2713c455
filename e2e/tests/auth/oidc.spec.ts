import { authMessages, googleAccessRequiredMessage, office365Messages } from '@quire/core';
import type { Page } from '@playwright/test';
import { expect, test } from '../../fixtures.js';
import { Office365Page, SignInPage, VerifyEmailPage } from '../../pages/auth/sign-in-pages.js';

/**
 * Google and Office 365 sign-in through their pop-ups, against the local OpenID Connect provider the
 * global setup starts in their place (support/auth-peers.ts). Its login form takes any login: the
 * account's e-mail; a login starting with "unverified" gets an unverified e-mail claim.
 */

const login = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@oidc.test`;

/** Signs in at the stand-in provider inside the pop-up, consenting (or refusing with "[ Cancel ]"). */
async function completeAtProvider(popup: Page, account: string, consent: boolean): Promise<void> {
  await popup.waitForLoadState();
  await expect(popup.locator('input[name="login"]')).toBeVisible();
  if (!consent) {
    await popup.getByRole('link', { name: '[ Cancel ]' }).click();
    return;
  }
  await popup.locator('input[name="login"]').fill(account);
  await popup.locator('input[name="password"]').fill('any-password');
  await popup.locator('button[type="submit"]').first().click();
  // The consent prompt follows the first sign-in for this client.
  const authorise = popup.locator('button[type="submit"]').first();
  if (await authorise.isVisible().catch(() => false)) await authorise.click().catch(() => undefined);
}

async function startGoogle(page: Page): Promise<Page> {
  const signIn = await new SignInPage(page, test.info()).goto();
  const [popup] = await Promise.all([page.waitForEvent('popup'), signIn.googleButton().click()]);
  return popup;
}

async function startOffice365(page: Page): Promise<Page> {
  const signIn = await new SignInPage(page, test.info()).goto();
  const [popup] = await Promise.all([page.waitForEvent('popup'), signIn.office365Button().click()]);
  await new Office365Page(page, test.info()).waitUntilReady();
  return popup;
}

test.describe('Google sign-in (pop-up)', () => {
  test('a new Google account is signed in, then told it has no organisation here', async ({ page }) => {
    const popup = await startGoogle(page);
    await completeAtProvider(popup, login('gina'), true);
    const signIn = new SignInPage(page, test.info());
    await expect(signIn.error()).toHaveText(authMessages.noOrganisations, { timeout: 30_000 });
  });

  test('refusing consent shows the Google access message, naming the product', async ({ page }) => {
    const { productName } = (await (await page.request.get('/api/console-config')).json()) as { productName: string };
    const popup = await startGoogle(page);
    await completeAtProvider(popup, login('refuser'), false);
    await expect(new SignInPage(page, test.info()).error()).toHaveText(googleAccessRequiredMessage(productName), { timeout: 30_000 });
  });

  test('an unverified e-mail claim leads to "Verify your email"', async ({ page }) => {
    const account = login('unverified-gus');
    const popup = await startGoogle(page);
    await completeAtProvider(popup, account, true);
    const verify = new VerifyEmailPage(page, test.info());
    await verify.waitUntilReady();
    await expect(page.getByText(account)).toBeVisible();
  });

  test('a forged state is refused: nobody is signed in', async ({ page }) => {
    await page.goto('/identity/callback/google?code=forged-code&state=forged-state');
    await page.goto('/sign-in');
    await new SignInPage(page, test.info()).waitUntilReady();
    const session = await page.request.get('/identity/get-session');
    expect(await session.json()).toBeNull();
  });
});

test.describe('Office 365 sign-in (pop-up)', () => {
  test('an address registered with a password is told to use it; Cancel goes back', async ({ page, demoAdmin }) => {
    const popup = await startOffice365(page);
    await completeAtProvider(popup, demoAdmin.email, true);
    const office = new Office365Page(page, test.info());
    await expect(office.error()).toHaveText(
      'You are already registered with an email account, please use that to sign in',
      { timeout: 30_000 },
    );
    await expect(office.tryAgainButton()).toBeVisible();
    await office.expectAccessible({ label: 'office 365 failure' });
    await office.cancelButton().click();
    await new SignInPage(page, test.info()).waitUntilReady();
  });

  test('refusing consent shows the access message, and Try again reopens the pop-up', async ({ page }) => {
    const popup = await startOffice365(page);
    await completeAtProvider(popup, login('olga'), false);
    const office = new Office365Page(page, test.info());
    await expect(office.error()).toHaveText(office365Messages.accessDenied, { timeout: 30_000 });
    const [again] = await Promise.all([page.waitForEvent('popup'), office.tryAgainButton().click()]);
    await completeAtProvider(again, login('olga'), true);
    await expect(new SignInPage(page, test.info()).error()).toHaveText(authMessages.noOrganisations, { timeout: 30_000 });
  });
});
