import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../../fixtures/auth.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { EmailSignInPage } from '../../pages/auth/sign-in-pages.js';
import { checkAccessibility } from '../../support/axe.js';
import { mailCount, waitForMail } from '../../support/mailbox.js';
import { graphql, uniqueEmails } from '../teachers/teachers-api.js';

/**
 * 2-step verification as an admin meets it (docs/identity.md "2-step verification"): set up an authenticator app on
 * the Security page, sign in with its code and with a recovery code (once only), and another admin resets it. Codes
 * come from Debian's oathtool, a TOTP implementation the server does not use. The enrolling admin works at phone
 * width (390 px); the resetting admin at desktop width.
 */

const PASSWORD = 'two-step-pass-1';
const SCHOOL = 'Willow Creek Primary School';

/** The authenticator app's code, `steps` 30-second steps from now (the server accepts one step either side, each once). */
function oathtoolCode(secret: string, steps = 0): string {
  const at = new Date(Date.now() + steps * 30_000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  return execFileSync('oathtool', ['--totp', '--base32', '--now', at, secret], { encoding: 'utf8' }).trim();
}

async function signInWithPassword(page: Page, email: string): Promise<void> {
  const emailPage = await new EmailSignInPage(page, test.info()).goto({ accessible: 'checked elsewhere' });
  await emailPage.signIn(email, PASSWORD);
}

/** The second-step screen: its code field, once it shows. */
async function secondStep(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: '2-step verification' })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/sign-in\/two-step$/);
  return page;
}

async function signOutFromSecurity(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

test('an admin turns on 2-step verification, signs in with a code and a recovery code (once), and another admin resets it', async ({ page, browser, organisations }) => {
  test.setTimeout(240_000);
  const origin = process.env.E2E_BASE_URL ?? '';
  const school = organisations.find((o) => o.name === SCHOOL)!;
  const [email] = uniqueEmails('two-step', 1) as [string];

  // The demo admin makes a new admin of the school; the new admin registers and verifies their address.
  await graphql(page, 'mutation importAdmins($orgId: ID!, $emails: [String!]!) { importAdmins(orgId: $orgId, emails: $emails) { added } }', {
    orgId: school.id,
    emails: [email],
  });
  const phone = await browser.newContext({ baseURL: origin, storageState: { cookies: [], origins: [] }, viewport: { width: 390, height: 844 } });
  try {
    const created = await phone.request.post('/auth/email', {
      headers: { origin },
      form: { email, password: PASSWORD, displayName: 'Tess Twostep', isTeacher: 'true', registrationAttempt: 'true' },
    });
    expect(created.status()).toBe(200);
    const admin = await phone.newPage();
    const verification = await waitForMail(email, { subject: /Verify/i });
    const verified = await phone.request.get(verification.links.find((l) => l.includes('/identity/verify-email'))!, { maxRedirects: 0 });
    expect(verified.status()).toBeLessThan(400);
    await signInWithPassword(admin, email);
    await admin.waitForURL((url) => url.pathname.startsWith(`/${encodeURIComponent(school.id)}`), { timeout: 30_000 });

    // The user menu leads to Security.
    await admin.getByRole('button', { name: 'Open navigation' }).click();
    await admin.getByRole('button', { name: /choose organisation, account security/ }).click();
    await admin.getByRole('menuitem', { name: 'Security' }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible();
    await expect(admin.getByText('Off', { exact: true })).toBeVisible();
    await checkAccessibility(admin, test.info(), { label: 'Security, 2-step verification off' });

    // Set-up: the QR code and the key to type by hand; a wrong first code changes nothing; the right one turns it on.
    await admin.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(admin.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await admin.getByTestId('authenticator-secret').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await checkAccessibility(admin, test.info(), { label: 'authenticator set-up' });
    const codeField = admin.getByRole('textbox', { name: 'Code from the app' });
    await expect(codeField).toHaveAttribute('inputmode', 'numeric');
    await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    await codeField.focus();
    const wrong = oathtoolCode(secret) === '000000' ? '111111' : '000000';
    await admin.keyboard.type(wrong);
    await admin.keyboard.press('Enter');
    await expect(admin.getByRole('alert')).toContainText('That code is not right');
    await expect(codeField).toBeFocused();
    const mailsBefore = mailCount(email);
    await admin.keyboard.type(oathtoolCode(secret));
    await admin.keyboard.press('Enter');

    // Ten recovery codes, shown once, with Copy and a text file to download.
    await expect(admin.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
    const codes = (await admin.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await checkAccessibility(admin, test.info(), { label: 'recovery codes shown once' });
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Download as text file' }).click()]);
    expect(download.suggestedFilename()).toMatch(/recovery-codes\.txt$/);
    const file = readFileSync((await download.path())!, 'utf8');
    for (const code of codes) expect(file).toContain(code);
    await admin.getByRole('button', { name: 'I have saved them' }).click();
    await expect(admin.getByTestId('recovery-codes-remaining')).toHaveText(/Recovery codes: 10 of 10 left/);
    await checkAccessibility(admin, test.info(), { label: 'Security, 2-step verification on' });
    // The subject is MIME-encoded (it has a dash of its own), so the mail is found by its order and read by its text.
    expect((await waitForMail(email, { skip: mailsBefore })).text).toContain('2-step verification was turned on');

    // Signed out, the password alone is not enough: the second step asks for the app's code, typed key by key.
    await signOutFromSecurity(admin);
    await signInWithPassword(admin, email);
    await secondStep(admin);
    const field = admin.getByRole('textbox', { name: 'Code' });
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute('inputmode', 'numeric');
    await checkAccessibility(admin, test.info(), { label: 'second step' });
    await admin.keyboard.type('12');
    await admin.keyboard.press('Enter');
    await expect(admin.getByText('The code is 6 digits, such as 123456.')).toBeVisible();
    await checkAccessibility(admin, test.info(), { label: 'second step, malformed code' });
    await admin.keyboard.press('Backspace');
    await admin.keyboard.press('Backspace');
    // The enrolment used this step's code; the next step's is accepted (one step of clock difference) and not yet used.
    await admin.keyboard.type(oathtoolCode(secret, 1));
    await admin.keyboard.press('Enter');
    await admin.waitForURL((url) => url.pathname.startsWith(`/${encodeURIComponent(school.id)}`), { timeout: 30_000 });

    // A recovery code works once.
    await admin.goto('/account/security');
    await signOutFromSecurity(admin);
    await signInWithPassword(admin, email);
    await secondStep(admin);
    // Code, 'Trust this device', 'Verify', 'Use a passkey', then 'Use a recovery code'.
    for (let i = 0; i < 4; i += 1) await admin.keyboard.press('Tab');
    await expect(admin.getByRole('button', { name: 'Use a recovery code' })).toBeFocused();
    await admin.keyboard.press('Enter');
    await expect(admin.getByRole('textbox', { name: 'Recovery code' })).toBeFocused();
    await checkAccessibility(admin, test.info(), { label: 'second step with a recovery code' });
    await admin.keyboard.type(codes[0]!);
    await admin.keyboard.press('Enter');
    await admin.waitForURL((url) => url.pathname.startsWith(`/${encodeURIComponent(school.id)}`), { timeout: 30_000 });
    await admin.goto('/account/security');
    await expect(admin.getByTestId('recovery-codes-remaining')).toHaveText(/Recovery codes: 9 of 10 left/);

    await signOutFromSecurity(admin);
    await signInWithPassword(admin, email);
    await secondStep(admin);
    await admin.getByRole('button', { name: 'Use a recovery code' }).click();
    await expect(admin.getByRole('textbox', { name: 'Recovery code' })).toBeFocused();
    await admin.keyboard.type(codes[0]!);
    await admin.keyboard.press('Enter');
    await expect(admin.getByRole('alert')).toContainText('That code is not right, or it was already used.');
    await expect(admin).toHaveURL(/\/sign-in\/two-step$/);
    await checkAccessibility(admin, test.info(), { label: 'second step, used recovery code refused' });

    // Another admin of the school (the demo admin) sees it on in the Admin list and resets it: a lost phone.
    const admins = await new AdminsPage(page, test.info(), school.id).goto();
    const row = admins.adminRow(email);
    await expect(row.getByText('On', { exact: true })).toBeVisible();
    const actions = row.getByRole('button', { name: `Actions for ${email}` });
    await actions.focus();
    await page.keyboard.press('Enter');
    const reset = page.getByRole('menuitem', { name: 'Reset 2-step verification' });
    await expect(reset).toBeVisible();
    await reset.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Reset 2-step verification' });
    await expect(dialog).toContainText(`Reset 2-step verification for ${email}?`);
    await checkAccessibility(page, test.info(), { label: 'reset 2-step verification dialog', include: '[role="dialog"]' });
    const mailsBeforeReset = mailCount(email);
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await expect(dialog).toBeHidden();
    await expect(admins.adminRow(email).getByText('Off', { exact: true })).toBeVisible();
    await expect(admins.adminRow(email).getByRole('button', { name: `Actions for ${email}` })).toBeFocused();
    expect((await waitForMail(email, { skip: mailsBeforeReset })).text).toContain('2-step verification was reset on your account');

    // The reset ended the waiting session; the password alone signs in again.
    await signInWithPassword(admin, email);
    await admin.waitForURL((url) => url.pathname.startsWith(`/${encodeURIComponent(school.id)}`), { timeout: 30_000 });
  } finally {
    await phone.close();
  }
});
