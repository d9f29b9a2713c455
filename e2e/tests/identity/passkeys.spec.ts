import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from '../../fixtures/auth.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { EmailSignInPage } from '../../pages/auth/sign-in-pages.js';
import { checkAccessibility } from '../../support/axe.js';
import { mailCount, waitForMail } from '../../support/mailbox.js';
import { graphql, uniqueEmails } from '../teachers/teachers-api.js';

/**
 * Passkeys as an admin meets them (docs/identity.md "Passkeys"), with Chromium's virtual authenticator standing in for
 * the device's (CTAP2, built in, discoverable credentials, user verification): add one on the Security page, sign in
 * with the password and the passkey as second step, sign in with the passkey alone, rename and remove it. Keyboard
 * only for the screens under test; axe on each dialog. The admin's browser is 390 px wide.
 */

const PASSWORD = 'passkey-pass-1';
const SCHOOL = 'Willow Creek Primary School';

/** A platform authenticator in this page's browser, as a laptop's fingerprint reader would be. */
async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

async function press(page: Page, name: string, role: 'button' | 'link' = 'button'): Promise<void> {
  const control = page.getByRole(role, { name, exact: true });
  await control.focus();
  await expect(control).toBeFocused();
  await page.keyboard.press('Enter');
}

async function signOut(page: Page): Promise<void> {
  await page.goto('/account/security');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

test('an admin adds a passkey, uses it as the second step and to sign in alone, renames and removes it', async ({ page, browser, organisations }) => {
  test.setTimeout(240_000);
  const origin = process.env.E2E_BASE_URL ?? '';
  const school = organisations.find((o) => o.name === SCHOOL)!;
  const [email] = uniqueEmails('passkey', 1) as [string];
  const inSchool = (url: URL) => url.pathname.startsWith(`/${encodeURIComponent(school.id)}`);

  await graphql(page, 'mutation importAdmins($orgId: ID!, $emails: [String!]!) { importAdmins(orgId: $orgId, emails: $emails) { added } }', {
    orgId: school.id,
    emails: [email],
  });
  // The admin works at phone width (390 px), where the passkey list wraps; the demo admin at desktop width.
  const context = await browser.newContext({ baseURL: origin, storageState: { cookies: [], origins: [] }, viewport: { width: 390, height: 844 } });
  try {
    const created = await context.request.post('/auth/email', {
      headers: { origin },
      form: { email, password: PASSWORD, displayName: 'Pat Passkey', isTeacher: 'true', registrationAttempt: 'true' },
    });
    expect(created.status()).toBe(200);
    const verification = await waitForMail(email, { subject: /Verify/i });
    expect((await context.request.get(verification.links.find((l) => l.includes('/identity/verify-email'))!, { maxRedirects: 0 })).status()).toBeLessThan(400);
    const admin = await context.newPage();
    await addVirtualAuthenticator(context, admin);
    const signInWithPassword = async () => {
      const emailPage = await new EmailSignInPage(admin, test.info()).goto({ accessible: 'checked elsewhere' });
      await emailPage.signIn(email, PASSWORD);
    };
    await signInWithPassword();
    await admin.waitForURL(inSchool, { timeout: 30_000 });

    // Add a passkey: named first, then the device confirms it; the first one turns 2-step verification on.
    await admin.goto('/account/security');
    await expect(admin.getByRole('heading', { level: 2, name: 'Passkeys' })).toBeVisible();
    await expect(admin.getByText('No passkeys yet.')).toBeVisible();
    await press(admin, 'Add a passkey');
    const addDialog = admin.getByRole('dialog', { name: 'Add a passkey' });
    const nameField = addDialog.getByRole('textbox', { name: /^Passkey name/ });
    await expect(nameField).toBeFocused();
    await admin.keyboard.press('Enter');
    await expect(addDialog.getByText('Enter a name for the passkey.')).toBeVisible();
    await checkAccessibility(admin, test.info(), { label: 'add a passkey dialog, name missing', include: '[role="dialog"]' });
    const mailsBefore = mailCount(email);
    await admin.keyboard.type('Work laptop');
    await admin.keyboard.press('Enter');
    await expect(admin.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused({ timeout: 20_000 });
    expect(await admin.getByTestId('recovery-codes').getByRole('listitem').count()).toBe(10);
    expect((await waitForMail(email, { skip: mailsBefore })).text).toContain('2-step verification was turned on');
    await press(admin, 'I have saved them');
    const list = admin.getByRole('list', { name: 'Your passkeys' });
    await expect(list).toContainText('Work laptop');
    await expect(list).toContainText('not used yet');
    await expect(admin.getByText('On', { exact: true })).toBeVisible();
    await checkAccessibility(admin, test.info(), { label: 'Security with a passkey' });

    // Rename it.
    await press(admin, 'Rename Work laptop');
    const renameDialog = admin.getByRole('dialog', { name: 'Rename passkey' });
    await expect(renameDialog.getByRole('textbox', { name: /^Passkey name/ })).toBeFocused();
    await checkAccessibility(admin, test.info(), { label: 'rename passkey dialog', include: '[role="dialog"]' });
    await admin.keyboard.press('ControlOrMeta+a');
    await admin.keyboard.type('Desk laptop');
    await admin.keyboard.press('Enter');
    await expect(renameDialog).toBeHidden();
    await expect(list).toContainText('Desk laptop');
    await expect(admin.getByRole('button', { name: 'Rename Desk laptop' })).toBeVisible();

    // The demo admin sees 'Passkey' in the Admin list.
    const admins = await new AdminsPage(page, test.info(), school.id).goto();
    await expect(admins.adminRow(email).getByText('Passkey', { exact: true })).toBeVisible();

    // Password, then the passkey as the second step (reached with Tab from the code field).
    await signOut(admin);
    await signInWithPassword();
    await expect(admin.getByRole('heading', { level: 1, name: '2-step verification' })).toBeVisible({ timeout: 20_000 });
    await expect(admin.getByRole('textbox', { name: 'Code' })).toBeFocused();
    await checkAccessibility(admin, test.info(), { label: 'second step with a passkey offered' });
    for (let i = 0; i < 3; i += 1) await admin.keyboard.press('Tab');
    await expect(admin.getByRole('button', { name: 'Use a passkey' })).toBeFocused();
    await admin.keyboard.press('Enter');
    await admin.waitForURL(inSchool, { timeout: 30_000 });

    // The passkey alone: both steps.
    await signOut(admin);
    await checkAccessibility(admin, test.info(), { label: 'sign-in with a passkey offered' });
    const passkeyButton = admin.getByRole('button', { name: 'Sign in with a passkey' });
    for (let i = 0; i < 10 && !(await passkeyButton.evaluate((el) => el === document.activeElement)); i += 1) await admin.keyboard.press('Tab');
    await expect(passkeyButton).toBeFocused();
    await admin.keyboard.press('Enter');
    await admin.waitForURL((url) => !url.pathname.startsWith('/sign-in'), { timeout: 30_000 });
    await expect(admin).not.toHaveURL(/\/sign-in\/two-step/);

    // Remove it: the only second factor, so removing it is turning 2-step verification off, with the password.
    await admin.goto('/account/security');
    await expect(list).toContainText(/last used on/);
    const removeButton = admin.getByRole('button', { name: 'Remove Desk laptop' });
    await press(admin, 'Remove Desk laptop');
    const offDialog = admin.getByRole('dialog', { name: 'Turn off 2-step verification' });
    await expect(offDialog).toContainText('passkeys and recovery codes will stop working');
    await expect(offDialog.getByLabel(/^Password/)).toBeFocused();
    await checkAccessibility(admin, test.info(), { label: 'remove the only passkey: turn off dialog', include: '[role="dialog"]' });
    await admin.keyboard.press('Escape');
    await expect(offDialog).toBeHidden();
    await expect(removeButton).toBeFocused();
    await admin.keyboard.press('Enter');
    await expect(offDialog.getByLabel(/^Password/)).toBeFocused();
    await admin.keyboard.type(PASSWORD);
    await admin.keyboard.press('Enter');
    await expect(offDialog).toBeHidden();
    await expect(admin.getByText('No passkeys yet.')).toBeVisible();
    await expect(admin.getByText('Off', { exact: true })).toBeVisible();

    // Signing in with it is refused now, with a message.
    await signOut(admin);
    await admin.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(admin.getByRole('alert')).toContainText('That passkey could not be checked');
  } finally {
    await context.close();
  }
});
