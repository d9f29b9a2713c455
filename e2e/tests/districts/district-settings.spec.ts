import { settingPolicyMessages, type AppSettingValue } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { RegisterPage } from '../../pages/auth/sign-in-pages.js';
import { ManageAppsPage } from '../../pages/settings-pages.js';
import { expectWithinWidth } from '../../support/layout.js';
import { waitForMail } from '../../support/mailbox.js';
import { changePolicies, changeSettings, readEffectiveSettings } from '../settings/settings-api.js';
import { graphql, uniqueEmails } from '../teachers/teachers-api.js';

// Settings that flow down (docs/settings.md "Districts"), in the demo's district: Riverside Unified School District over
// Oakwood Elementary School and Willow Creek Primary School. The demo admin administers the district; a school admin
// of Oakwood alone is made for the test. An app no other spec changes, and everything put back after.
const APP = { id: 'graphicorganizers', name: 'Graphic Organizers' } as const;
const DISTRICT = 'Riverside Unified School District';
const PASSWORD = 'school-admin-1';


test.describe('a district governs a setting of its schools', () => {
  test('locks an app off for all schools: a school admin sees it greyed and cannot change it; Let schools decide gives each school its own value back', async ({
    page,
    organisations,
    browser,
  }) => {
    test.setTimeout(180_000);
    const byName = (name: string) => {
      const found = organisations.find((o) => o.name === name);
      if (!found) throw new Error(`the demo admin needs ${name}`);
      return found;
    };
    const riverside = byName(DISTRICT);
    const oakwood = byName('Oakwood Elementary School');
    const willow = byName('Willow Creek Primary School');
    const ownOf = async (orgId: string) => (await readEffectiveSettings(page, orgId)).sources.apps[APP.id].own;
    const original = { oakwood: await ownOf(oakwood.id), willow: await ownOf(willow.id), policy: (await readEffectiveSettings(page, riverside.id)).policies.apps[APP.id] ?? null };
    const [schoolAdmin] = uniqueEmails('school-admin', 1) as [string];
    const schoolContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: { cookies: [], origins: [] } });
    try {
      // Each school's own value before: Oakwood chose 'Teachers only', Willow Creek none of its own.
      await changeSettings(page, oakwood.id, { apps: { [APP.id]: 1 } });
      await changeSettings(page, willow.id, { apps: { [APP.id]: null } });
      await graphql(page, 'mutation importAdmins($orgId: ID!, $emails: [String!]!) { importAdmins(orgId: $orgId, emails: $emails) { added } }', {
        orgId: oakwood.id,
        emails: [schoolAdmin],
      });

      // The school admin registers, verifies their address and lands in Oakwood, the one organisation they administer.
      const schoolPage = await schoolContext.newPage();
      await schoolPage.goto(`/sign-in/register/${encodeURIComponent(schoolAdmin)}`);
      const register = new RegisterPage(schoolPage, null);
      await register.waitUntilReady();
      await register.fill({ firstName: 'Oakwood', lastName: 'Admin', password: PASSWORD });
      await register.createAccountButton().click();
      const mail = await waitForMail(schoolAdmin, { subject: /Verify your email/i });
      await schoolPage.goto(mail.links.find((l) => l.includes('/identity/verify-email')) ?? '');
      // Verified, the link signs them in; their only organisation opens.
      await schoolPage.waitForURL((url) => url.pathname.startsWith(`/${encodeURIComponent(oakwood.id)}`), { timeout: 30_000 });

      // The district admin, keyboard only: 'Disabled for everyone' for every school (Enter saves it), then locked.
      const district = await new ManageAppsPage(page, test.info(), riverside.id).goto();
      await expect(district.forSchools(APP.name)).toHaveValue('decide');
      await district.forSchools(APP.name).focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
      await expect(district.forSchools(APP.name)).toHaveValue('-1');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await readEffectiveSettings(page, riverside.id)).policies.apps[APP.id]).toEqual({ mode: 'default', value: -1 });
      await expect(district.forSchools(APP.name)).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(district.lockForSchools(APP.name)).toBeFocused();
      await page.keyboard.press('Space');
      await expect.poll(async () => (await readEffectiveSettings(page, riverside.id)).policies.apps[APP.id]).toEqual({ mode: 'locked', value: -1 });
      await expect(district.lockForSchools(APP.name)).toBeChecked();
      await district.expectAccessible({ label: 'district with a locked app' });

      // At Oakwood, its admin sees the value greyed, disabled, and why, in words the control names.
      const school = await new ManageAppsPage(schoolPage, test.info(), oakwood.id).goto();
      const locked = school.permission(APP.name);
      await expect(locked).toBeDisabled();
      await expect(locked).toHaveValue('-1');
      await expect(locked).toHaveAccessibleDescription(settingPolicyMessages.locked(DISTRICT));
      await expect(school.forSchools(APP.name)).toHaveCount(0);
      // Apps the district leaves to schools stay the school's.
      await expect(school.permission('Canva')).toBeEnabled();
      await school.expectAccessible({ label: 'school with an app locked by its district' });
      // The server refuses the school admin's change itself.
      const refused = await schoolPage.request.patch(`/api/organisations/${encodeURIComponent(oakwood.id)}/settings`, {
        headers: { origin: process.env.E2E_BASE_URL ?? '' },
        data: { apps: { [APP.id]: 0 } },
      });
      expect(refused.status()).toBe(409);
      expect(await refused.json()).toMatchObject({ code: 'setting_locked_by_district', message: settingPolicyMessages.refused(DISTRICT) });
      // 390 px wide: the locked control and its reason fit.
      await schoolPage.setViewportSize({ width: 390, height: 800 });
      await expectWithinWidth(schoolPage, locked);
      await school.expectAccessible({ label: 'locked app at 390 px' });

      // The district returns it to 'Let schools decide' (Home, Enter): each school has its own value back.
      await district.forSchools(APP.name).focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await readEffectiveSettings(page, riverside.id)).policies.apps[APP.id] ?? null).toBeNull();
      await expect(district.lockForSchools(APP.name)).toHaveCount(0);
      await schoolPage.reload();
      await school.waitUntilReady();
      await expect(school.permission(APP.name)).toBeEnabled();
      await expect(school.permission(APP.name)).toHaveValue('1');
      await expect(school.permission(APP.name)).not.toHaveAccessibleDescription(/Set by/);
      const willowNow = (await readEffectiveSettings(page, willow.id)).sources.apps[APP.id];
      expect(willowNow).toMatchObject({ from: 'built-in', own: null });
    } finally {
      await schoolContext.close();
      await changePolicies(page, riverside.id, { apps: { [APP.id]: original.policy } });
      await changeSettings(page, oakwood.id, { apps: { [APP.id]: original.oakwood as AppSettingValue | null } });
      await changeSettings(page, willow.id, { apps: { [APP.id]: original.willow as AppSettingValue | null } });
      await graphql(page, 'mutation deleteAdmins($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }', {
        orgId: oakwood.id,
        emails: [schoolAdmin],
      }).catch(() => undefined);
    }
  });
});
