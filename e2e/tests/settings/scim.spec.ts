import { expect, test } from '../../fixtures/auth.js';
import { ProvisioningPage } from '../../pages/settings-pages.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { PHONE_PROJECT } from '../../support/env.js';
import { changeableOrganisation, uniqueEmails } from '../teachers/teachers-api.js';

const SCIM_JSON = 'application/scim+json';

/** A request as an identity provider sends it: server to server, bearer token, SCIM JSON, no cookie, no Origin. */
async function scim(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: SCIM_JSON, ...(body !== undefined ? { 'content-type': SCIM_JSON } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

test.describe('Provisioning (SCIM)', () => {
  test('an admin connects an identity provider by keyboard: its teacher appears, moves to Inactive, and the revoked token is refused', async ({
    page,
    organisation,
    organisations,
  }) => {
    const org = await changeableOrganisation(page, organisations, organisation);
    await page.goto(`/${encodeURIComponent(org.id)}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });

    // Settings › Provisioning (SCIM), by keyboard (on a phone the navigation is behind its button first).
    if (test.info().project.name === PHONE_PROJECT) {
      await page.getByRole('button', { name: 'Open navigation' }).focus();
      await page.keyboard.press('Enter');
    }
    const settings = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Settings' });
    await settings.focus();
    await page.keyboard.press('Enter');
    const item = page.getByRole('menuitem', { name: 'Provisioning (SCIM)' });
    await expect(item).toBeVisible();
    for (let presses = 0; presses < 6 && !(await item.evaluate((el) => el === document.activeElement)); presses += 1) {
      await page.keyboard.press('ArrowDown');
    }
    await expect(item).toBeFocused();
    await page.keyboard.press('Enter');
    const provisioning = new ProvisioningPage(page, test.info(), org.id);
    await expect(page).toHaveURL(new RegExp(`${provisioning.path}$`));
    await provisioning.waitUntilReady();
    await provisioning.expectAccessible({ label: 'provisioning page' });
    const baseUrl = (await provisioning.baseUrl().textContent()) ?? '';
    expect(baseUrl).toBe(`${process.env.E2E_BASE_URL}/scim/v2`);

    // Generate a token: Enter on the button, the token in a dialog to copy, once.
    await provisioning.generateButton().focus();
    await page.keyboard.press('Enter');
    const tokenDialog = provisioning.dialog('New SCIM token');
    await expect(tokenDialog).toBeVisible();
    await expect(tokenDialog).toContainText('Copy this token now: it will not be shown again');
    await expect(tokenDialog.getByRole('button', { name: 'Copy token' })).toBeVisible();
    await provisioning.expectAccessible({ include: '[role="dialog"]', label: 'new token dialog' });
    const token = (await tokenDialog.getByText(/^quire_scim_[\w-]{43}$/).textContent()) ?? '';
    expect(token).toMatch(/^quire_scim_[\w-]{43}$/);
    const hint = token.slice(-4);
    await expect(tokenDialog.getByRole('button', { name: 'I have copied the token' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(tokenDialog).toHaveCount(0);
    await expect(provisioning.generateButton()).toBeFocused();
    await expect(page.getByText(token)).toHaveCount(0);
    await expect(provisioning.tokens().getByRole('row').filter({ hasText: `…${hint}` })).toContainText('Never');

    // Entra ID's cycle for a new user: look it up by userName, then create it with the body it documents.
    const [email = ''] = uniqueEmails('scim', 1);
    const userName = email;
    const lookUp = await scim(baseUrl, token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(lookUp.status).toBe(200);
    expect(await lookUp.json()).toMatchObject({ totalResults: 0, Resources: [] });
    const created = await scim(baseUrl, token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: crypto.randomUUID(),
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: email }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Grace Hopper', familyName: 'Hopper', givenName: 'Grace' },
      roles: [],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    const user = (await created.json()) as { id: string; meta: { location: string } };
    expect(created.headers.get('location')).toBe(user.meta.location);

    // The admin sees the teacher on the Teachers screen.
    const teachers = await new TeachersPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
    await teachers.search(email);
    await expect(teachers.teacherRow(email)).toBeVisible();
    await expect(teachers.teacherRow(email)).toContainText('Grace Hopper');

    // Entra ID unassigns the user: active as the string "False". The teacher moves under Inactive.
    const deactivated = await scim(baseUrl, token, 'PATCH', `/Users/${user.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(deactivated.status).toBe(200);
    expect(await deactivated.json()).toMatchObject({ id: user.id, active: false });
    await page.reload();
    await teachers.waitUntilReady();
    await teachers.search(email);
    await expect(teachers.teacherRow(email)).toHaveCount(0);
    await teachers.openTab('Inactive');
    await teachers.search(email);
    await expect(teachers.teacherRow(email)).toBeVisible();

    // The provider's calls, in the Provisioning screen's request log, newest first.
    await provisioning.goto({ accessible: 'checked elsewhere' });
    const log = provisioning.requests();
    await expect(log).toBeVisible();
    const rows = log.locator('tbody tr');
    await expect(rows.nth(0)).toContainText('Update user');
    await expect(rows.nth(0)).toContainText(user.id);
    await expect(rows.nth(0)).toContainText('200 OK');
    await expect(rows.nth(1)).toContainText('Create user');
    await expect(rows.nth(1)).toContainText(userName);
    await expect(rows.nth(1)).toContainText('201 OK');
    await expect(rows.nth(2)).toContainText('List users');
    await expect(rows.nth(2)).toContainText(`userName eq "${userName}"`);
    await expect(provisioning.tokens().getByRole('row').filter({ hasText: `…${hint}` })).not.toContainText('Never');

    // Revoke asks first; Cancel keeps the token and gives focus back to its Revoke button.
    await provisioning.revokeButton(hint).focus();
    await page.keyboard.press('Enter');
    const revokeDialog = provisioning.dialog('Revoke SCIM token');
    await expect(revokeDialog).toBeVisible();
    await expect(revokeDialog).toContainText(`the token ending in ${hint}`);
    await provisioning.expectAccessible({ include: '[role="dialog"]', label: 'revoke token dialog' });
    await expect(revokeDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(revokeDialog).toHaveCount(0);
    await expect(provisioning.revokeButton(hint)).toBeFocused();
    expect((await scim(baseUrl, token, 'GET', `/Users/${user.id}`)).status).toBe(200);

    // Confirmed: the row goes, focus lands on Generate token, and the provider's next call is refused.
    await page.keyboard.press('Enter');
    await expect(revokeDialog).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(revokeDialog.getByRole('button', { name: 'Revoke' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(revokeDialog).toHaveCount(0);
    await expect(provisioning.revokeButton(hint)).toHaveCount(0);
    await expect(provisioning.generateButton()).toBeFocused();
    const refused = await scim(baseUrl, token, 'GET', `/Users/${user.id}`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
  });
});
