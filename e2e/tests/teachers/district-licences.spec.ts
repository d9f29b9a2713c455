import { expect, type Page } from '@playwright/test';
import { licenseAllocationsSchema, notEnoughAllocatedLicensesMessage, type LicenseAllocations } from '@quire/core';
import { test } from '../../fixtures/auth.js';
import { LicensesPage } from '../../pages/licenses-page.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { checked } from '../../support/contracts.js';
import { PHONE_PROJECT } from '../../support/env.js';
import { expectNoSidewaysScroll, expectTableFits } from '../../support/layout.js';
import { importByApi, listLicenses, restoreLicense, revokeByApi, uniqueEmails } from './teachers-api.js';

// Licences across the district (docs/districts.md): the demo's Riverside Unified School District holds 'District
// Standard' and allocates seats of it to Oakwood and Willow Creek.
const DISTRICT = 'Riverside Unified School District';
const LICENSE = 'District Standard';
const origin = () => ({ origin: process.env.E2E_BASE_URL ?? '' });

const allocationsUrl = (districtId: string, licenseId: string) =>
  `/payments/v1/admin/organisations/${encodeURIComponent(districtId)}/licenses/${encodeURIComponent(licenseId)}/allocations`;

async function readAllocations(page: Page, districtId: string, licenseId: string): Promise<LicenseAllocations> {
  const answer = await page.request.get(allocationsUrl(districtId, licenseId));
  expect(answer.ok()).toBeTruthy();
  return checked(licenseAllocationsSchema, await answer.json(), 'GET …/allocations');
}

async function setAllocation(page: Page, districtId: string, licenseId: string, schoolId: string, seats: number): Promise<void> {
  const answer = await page.request.put(`${allocationsUrl(districtId, licenseId)}/${encodeURIComponent(schoolId)}`, { headers: origin(), data: { seats } });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

test.describe('Licences across the district', () => {
  test('the district allocates seats by keyboard, and a school cannot assign beyond them', { tag: '@phone' }, async ({ page, organisations }) => {
    const district = organisations.find((o) => o.name === DISTRICT);
    // The two projects change different schools, so their runs never meet.
    const schoolName = test.info().project.name === PHONE_PROJECT ? 'Willow Creek Primary School' : 'Oakwood Elementary School';
    const school = organisations.find((o) => o.name === schoolName);
    if (!district || !school) throw new Error('the demo admin administers the demo district and its schools');
    const districtLicense = (await listLicenses(page, district.id)).find((l) => l.name === LICENSE);
    if (!districtLicense) throw new Error(`the demo district holds ${LICENSE}`);
    const before = (await readAllocations(page, district.id, districtLicense.id)).allocations.find((a) => a.organisationId === school.id);
    if (!before) throw new Error(`${schoolName} is below the district`);
    const [first, second] = uniqueEmails('allocated', 2) as [string, string];
    const fresh = await importByApi(page, school.id, [first, second]);

    try {
      // The district: the licence's total, each school's allocation and what it has assigned.
      const dashboard = await new LicensesPage(page, test.info(), district.id).goto();
      const row = dashboard.allocationRow(LICENSE, schoolName);
      await expect(row.getByRole('cell')).toHaveText([String(before.seats), String(before.assigned), 'Change']);
      await expect(dashboard.allocations()).toContainText(`${districtLicense.quantity} purchased`);
      // On a phone too: the allocations fit the width, with no sideways scrolling.
      await expectTableFits(dashboard.allocationTable(LICENSE));
      await expectNoSidewaysScroll(page);

      // One seat more than the school has assigned, typed from the keyboard.
      const change = dashboard.changeAllocationButton(LICENSE, schoolName);
      await change.focus();
      await page.keyboard.press('Enter');
      const dialog = dashboard.dialog('Change allocation');
      await expect(dialog).toBeVisible();
      await expectNoSidewaysScroll(page);
      const seats = dialog.getByRole('textbox', { name: `Seats for ${schoolName}` });
      await expect(seats).toBeFocused();
      await dashboard.expectAccessible({ include: '[role="dialog"]', label: 'change allocation' });
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(String(before.assigned + 1));
      await page.keyboard.press('Enter');
      await expect(dialog).toHaveCount(0);
      await expect(change).toBeFocused();
      await expect(row.getByRole('cell')).toHaveText([String(before.assigned + 1), String(before.assigned), 'Change']);

      // The school sees its share, and assigns its last seat.
      const schoolDashboard = await new LicensesPage(page, test.info(), school.id).goto();
      await expect(schoolDashboard.licenseRow(LICENSE)).toContainText(`${before.assigned} of ${before.assigned + 1} allocated by ${DISTRICT} used`);
      const share = (await listLicenses(page, school.id)).find((l) => l.name === LICENSE);
      if (!share) throw new Error(`${schoolName} holds its share of ${LICENSE}`);
      const teachers = await new TeachersPage(page, test.info(), school.id).goto({ accessible: 'checked elsewhere' });
      await teachers.search(first);
      await teachers.rowMenuButton(first).focus();
      await page.keyboard.press('Enter');
      await teachers.menuItem('Assign license').focus();
      await page.keyboard.press('ArrowRight');
      // The school's share comes after its own licences in the submenu.
      const item = teachers.menuItem(LICENSE);
      for (let step = 0; step < 5 && !(await item.evaluate((el) => el === document.activeElement)); step += 1) await page.keyboard.press('ArrowDown');
      await expect(item).toBeFocused();
      await page.keyboard.press('Enter');
      const assign = teachers.dialog('Assign license');
      await expect(assign.getByRole('button', { name: 'Assign' })).toBeFocused();
      // Meanwhile another admin of the school gives that seat to someone else: the screen still counts it free.
      await restoreLicense(page, school.id, fresh[1]!.id, share.id);
      await page.keyboard.press('Enter');
      await expect(teachers.notification(notEnoughAllocatedLicensesMessage(share.bookQuota, 0, DISTRICT))).toBeVisible();
      await teachers.expectAccessible({ label: 'refused assignment' });
      await expect(teachers.teacherRow(first)).not.toContainText(LICENSE);
    } finally {
      await restoreLicense(page, school.id, fresh[1]!.id, null);
      await setAllocation(page, district.id, districtLicense.id, school.id, before.seats);
      await revokeByApi(page, school.id, fresh.map((m) => m.id));
    }
  });
});
