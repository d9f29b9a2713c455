import { expect, test } from '../../fixtures/auth.js';
import { LmsPage } from '../../pages/settings-pages.js';
import { startE2eRegistrationPlatform } from '../../support/lti-registration-platform.js';
import { checkAccessibility } from '../../support/axe.js';
import { changeableOrganisation } from '../teachers/teachers-api.js';
import { launchOrganisation } from './settings-api.js';

/**
 * LTI Dynamic Registration as an admin meets it: 'Register with a platform' on the LMS Integration screen (keyboard),
 * the registration URL pasted into an independent platform, which opens it in a frame; the admin confirms there (no
 * console session in that browser: the URL is what binds it), the platform gets the tool's registration and closes the
 * frame, and the platform appears on the screen.
 */
test('registers a learning platform by Dynamic Registration from the registration URL', { tag: '@phone' }, async ({ page, browser, organisation, organisations }) => {
  const base = process.env.E2E_BASE_URL ?? '';
  const changeable = await changeableOrganisation(page, organisations, organisation);
  const org = launchOrganisation(organisations, organisation, changeable);
  const lms = await new LmsPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
  const platform = await startE2eRegistrationPlatform();
  let registeredClient = '';
  try {
    const register = page.getByRole('button', { name: 'Register with a platform' });
    await register.focus();
    await page.keyboard.press('Enter');
    const dialog = lms.dialog('Register with a learning platform');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
    await lms.expectAccessible({ include: '[role="dialog"]', label: 'registration URL dialog' });
    const url = (await dialog.locator('code').textContent()) ?? '';
    expect(url.startsWith(`${base}/lti/1.3/register?t=`)).toBe(true);
    await expect(dialog.getByRole('button', { name: 'Copy registration URL' })).toBeVisible();

    // The platform, in a browser with no console session, opens the URL in a frame; the admin confirms by keyboard.
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const lmsAdmin = await context.newPage();
      await lmsAdmin.goto(platform.adminPage(url));
      const frame = lmsAdmin.frameLocator('#registration');
      await expect(frame.getByRole('heading', { name: /Register .+ with your learning platform/ })).toBeVisible();
      await expect(frame.getByText(/Moodle \(127\.0\.0\.1:\d+\)/)).toBeVisible();
      const confirm = frame.getByRole('button', { name: /^Register / });
      await confirm.focus();
      await lmsAdmin.keyboard.press('Enter');
      await expect(lmsAdmin.getByRole('heading', { name: 'Registration finished' })).toBeVisible();
      const [registration] = platform.registrations();
      expect(registration?.body).toMatchObject({ initiate_login_uri: `${base}/lti/1.3/login`, redirect_uris: [`${base}/lti/1.3/launch`], jwks_uri: `${base}/lti/1.3/jwks` });
      registeredClient = registration?.clientId ?? '';

      // The registration page as the admin saw it, checked for accessibility at the top level.
      const second = await page.request.post(`/api/organisations/${encodeURIComponent(org.id)}/lti/registrations`, { headers: { origin: base } });
      expect(second.status()).toBe(200);
      const secondUrl = ((await second.json()) as { url: string }).url;
      const direct = new URL(secondUrl);
      direct.searchParams.set('openid_configuration', `${platform.issuer}/.well-known/openid-configuration`);
      await lmsAdmin.goto(direct.toString());
      await expect(lmsAdmin.getByRole('button', { name: /^Register / })).toBeVisible();
      await checkAccessibility(lmsAdmin, test.info(), { label: 'dynamic registration confirmation' });
      // A double click registers once and says so: the second click is not a second, refused, use of the address.
      await lmsAdmin.goto(platform.adminPage(secondUrl));
      await lmsAdmin.frameLocator('#registration').getByRole('button', { name: /^Register / }).dblclick();
      await expect(lmsAdmin.getByRole('heading', { name: 'Registration finished' })).toBeVisible();
      expect(platform.registrations()).toHaveLength(2);
      const again = platform.registrations()[1]?.clientId ?? '';
      const removed = await page.request.get(`/api/organisations/${encodeURIComponent(org.id)}/lti/platforms`, { headers: { origin: base } });
      const listed = ((await removed.json()) as { platforms?: { id: string; clientId: string }[] }).platforms ?? [];
      const extra = listed.find((p) => p.clientId === again);
      expect(extra).toBeDefined();
      await page.request.delete(`/api/organisations/${encodeURIComponent(org.id)}/lti/platforms/${encodeURIComponent(extra?.id ?? '')}`, { headers: { origin: base } });
    } finally {
      await context.close();
    }

    // Done: focus back on the button, and the platform is on the screen.
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(register).toBeFocused();
    const platforms = page.getByRole('table', { name: 'Learning platforms' });
    const row = platforms.getByRole('row', { name: new RegExp(`Moodle \\(127\\.0\\.0\\.1:\\d+\\).*${registeredClient}`) });
    await expect(row).toBeVisible();
    await expect(row).toContainText(platform.registrations()[0]?.deploymentId ?? 'missing');
    await lms.expectAccessible({ label: 'platform registered by dynamic registration' });

    const name = (await row.getByRole('button', { name: /^Remove / }).getAttribute('aria-label')) ?? '';
    await row.getByRole('button', { name: /^Remove / }).click();
    await lms.dialog('Remove learning platform').getByRole('button', { name: 'Remove' }).click();
    await expect(platforms.getByRole('button', { name })).toHaveCount(0);
  } finally {
    await platform.close();
  }
});
