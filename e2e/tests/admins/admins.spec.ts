import type { Page } from '@playwright/test';
import { adminMessages, isProviderStaffEmail, providerStaffAdminMessage, type AdminEntry, type AdminPage } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { changeableOrganisation, graphql, uniqueEmails } from '../teachers/teachers-api.js';
import { withAdminsOf } from '../../support/admins-lock.js';
import { readConsoleConfig } from '../../support/contracts.js';

/** The admins list as getAdmins answers it, the fields this spec compares. */
type AdminList = Pick<AdminPage, 'total'> & { admins: Array<Pick<AdminEntry, 'email' | 'isYou'>> };

async function listAdmins(page: Page, orgId: string): Promise<AdminList> {
  const data = await graphql<{ getAdmins: AdminList }>(
    page,
    'query getAdmins($orgId: ID!) { getAdmins(orgId: $orgId, pageSize: 100) { admins { email isYou } total } }',
    { orgId },
  );
  return data.getAdmins;
}

test.describe('Admin screen', () => {
  test('lists the admins by e-mail ascending with their organisation', { tag: '@phone' }, async ({ page, organisation }) => {
    const expected = await listAdmins(page, organisation.id);
    const admins = await new AdminsPage(page, test.info(), organisation.id).goto();
    const config = await readConsoleConfig(page);
    const shown = await admins.rows().locator('td:nth-child(2)').allTextContents();
    // The address, then its badges: You, provider staff and, where the 2-step column gives its room up (390 px), 2-step.
    const badges = new RegExp(`(You|${config.productName} staff)?(2-step: (Passkey|On|Off))?$`);
    expect(shown.map((t) => t.replace(badges, ''))).toEqual(expected.admins.slice(0, 10).map((a) => a.email));
    // The demo's provider-staff admin is marked as such.
    const staff = expected.admins.slice(0, 10).find((a) => isProviderStaffEmail(a.email, config.providerEmailDomain));
    if (staff) await expect(admins.adminRow(staff.email)).toContainText(`${config.productName} staff`);
    await expect(admins.rows().first().locator('td:nth-child(3)')).toHaveText(organisation.name);
    if (expected.total <= 10) await expect(page.getByRole('navigation', { name: 'Pages' })).toHaveCount(0);
  });

  test('adds admins, then removes one from its row and another in bulk', async ({ page, organisation }) => {
    const [first, second] = uniqueEmails('admin', 2) as [string, string];
    const admins = await new AdminsPage(page, test.info(), organisation.id).goto();
    try {
      // Typed in any case: stored lower-cased.
      await admins.addAdmins(`${first.toUpperCase()}; ${second}`);
      await expect(admins.notification('2 admins added')).toBeVisible();
      await expect(admins.dialog('Add admins')).toHaveCount(0);
      await expect(admins.adminRow(first)).toBeVisible();
      await expect(admins.adminRow(second)).toBeVisible();

      await admins.removeAdmin(first);
      await expect(admins.notification('1 admin removed')).toBeVisible();
      await expect(admins.adminRow(first)).toHaveCount(0);
      // The info notice closes itself after 2 s with a fade: axe must not meet it half faded (a contrast of 1:1).
      await expect(admins.notification('1 admin removed')).toHaveCount(0);

      await admins.selectRow(second).check();
      await expect(admins.bulkBar()).toContainText('1 admin selected');
      await admins.expectAccessible({ label: 'admins with a selection' });
      const dialog = await admins.openDialog(admins.bulkBar().getByRole('button', { name: 'Remove admins' }), 'Remove admin');
      await dialog.getByRole('button', { name: 'Remove admin' }).click();
      await expect(admins.adminRow(second)).toHaveCount(0);
      expect((await listAdmins(page, organisation.id)).admins.map((a) => a.email)).not.toContain(second);
    } finally {
      const left = (await listAdmins(page, organisation.id)).admins.map((a) => a.email).filter((e) => e === first || e === second);
      if (left.length) await graphql(page, 'mutation deleteAdmins($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }', { orgId: organisation.id, emails: left });
    }
  });

  test("refuses the provider's own addresses, in any case, before anything is sent", async ({ page, organisation }) => {
    const config = await readConsoleConfig(page);
    const admins = await new AdminsPage(page, test.info(), organisation.id).goto();
    const dialog = await admins.addAdmins(`staff@${config.providerEmailDomain.toUpperCase()}`);
    await expect(dialog.getByText(providerStaffAdminMessage(config.productName))).toBeVisible();
    await admins.expectAccessible({ include: '[role="dialog"]', label: 'add admins refused' });
    // Keyboard only: Escape closes the dialog.
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test("the last admin cannot be removed: the server's reason is shown", async ({ page, organisation, organisations }) => {
    // Leave the demo admin alone in an organisation the other tests only read, and put the others back after.
    const org = await changeableOrganisation(page, organisations, organisation);
    // It may wait for another test changing the same organisation's admins (the audit log's).
    test.setTimeout(360_000);
    await withAdminsOf(org.id, async () => {
      // Provider staff admins (the demo seeds one) do not count as the organisation's own, and cannot be added back.
      const { providerEmailDomain } = await readConsoleConfig(page);
      const others = (await listAdmins(page, org.id)).admins.filter((a) => !a.isYou && !isProviderStaffEmail(a.email, providerEmailDomain)).map((a) => a.email);
      const me = (await listAdmins(page, org.id)).admins.find((a) => a.isYou)!.email;
      if (others.length) await graphql(page, 'mutation deleteAdmins($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }', { orgId: org.id, emails: others });
      try {
        const admins = await new AdminsPage(page, test.info(), org.id).goto();
        await admins.removeAdmin(me);
        await expect(admins.notification(/at least one admin/)).toBeVisible();
        await expect(admins.notification(adminMessages.removeFailed)).toHaveCount(0);
        // The organisation's own row (a school also lists its district's admins, the same address among them).
        await expect(admins.adminRow(me).filter({ hasText: org.name })).toBeVisible();
      } finally {
        if (others.length) await graphql(page, 'mutation importAdmins($orgId: ID!, $emails: [String!]!) { importAdmins(orgId: $orgId, emails: $emails) { added } }', { orgId: org.id, emails: others });
      }
    });
  });
});
