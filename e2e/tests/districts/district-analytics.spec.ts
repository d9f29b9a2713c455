import type { Page } from '@playwright/test';
import { abbreviateNumber, analyticsBreakdownSchema, analyticsSessionSchema, type AnalyticsBreakdown } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { AnalyticsPage } from '../../pages/analytics-page.js';
import { PHONE_PROJECT } from '../../support/env.js';
import { expectNoSidewaysScroll, expectWithinWidth } from '../../support/layout.js';

// Analytics at a district (docs/districts.md, "District views: Analytics"), on the demo's Riverside Unified School
// District over Oakwood Elementary School and Willow Creek Primary School: the tiles sum the schools, a By school
// table splits them, and each school's name opens that school's Analytics.
test.describe.configure({ timeout: 240_000 });

const DISTRICT = 'Riverside Unified School District';

/** The breakdown the screen shows, read with the same signed URL the console uses (weekly: 18 months by default). */
async function breakdownOf(page: Page, orgId: string): Promise<AnalyticsBreakdown> {
  const session = analyticsSessionSchema.parse(await (await page.request.get(`/analytics/sessions/app/organisations/${encodeURIComponent(orgId)}`)).json());
  return analyticsBreakdownSchema.parse(await (await page.request.get(session.urls.breakdown)).json());
}

test('a district admin sees the district summed over its schools, by school, and opens a school’s Analytics by keyboard', { tag: '@phone' }, async ({ page, organisations }) => {
  const riverside = organisations.find((o) => o.name === DISTRICT);
  if (!riverside) throw new Error(`the demo admin needs ${DISTRICT}`);
  const analytics = await new AnalyticsPage(page, test.info(), riverside.id).goto();
  await expect(page.getByText(`Figures of ${DISTRICT} and its 2 schools`)).toBeVisible();

  const table = page.getByRole('region', { name: 'Table By school' }).getByRole('table');
  await expect(table.getByRole('columnheader').first()).toHaveText('School');
  const rowHeaders = table.getByRole('rowheader');
  await expect(rowHeaders).toHaveText([`${DISTRICT} (district's own)`, 'Oakwood Elementary School', 'Willow Creek Primary School', 'Total']);

  // The table's rows add up to the tiles, which are the schools' figures summed.
  const breakdown = await breakdownOf(page, riverside.id);
  const sum = (key: 'students' | 'libraries' | 'books') => breakdown.organisations.reduce((n, o) => n + o[key], 0);
  const oakwood = breakdown.organisations.find((o) => o.organisationName === 'Oakwood Elementary School');
  expect(oakwood?.students, 'Oakwood has students in the demo').toBeGreaterThan(0);
  await expect(analytics.tile(/^Students$/)).toHaveText(abbreviateNumber(sum('students')));
  await expect(analytics.tile(/^Libraries$/)).toHaveText(abbreviateNumber(sum('libraries')));
  await expect(analytics.tile(/^Books$/)).toHaveText(abbreviateNumber(sum('books')));
  const totalRow = table.locator('tfoot tr');
  await expect(totalRow.locator('td').first()).toHaveText(sum('students').toLocaleString('en-US'));
  if (test.info().project.name === PHONE_PROJECT) {
    // At 390 px the table scrolls inside its own region, which the keyboard can reach; the page itself does not.
    await expectWithinWidth(page, page.getByRole('region', { name: 'Table By school' }));
    await expectNoSidewaysScroll(page);
  }

  // Keyboard: Tab from the time options reaches the first school's link; Enter opens the school's Analytics.
  await analytics.timeOption('Weekly').focus();
  const link = table.getByRole('link', { name: 'Oakwood Elementary School' });
  for (let i = 0; i < 20 && !(await link.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(link).toBeFocused();
  await page.keyboard.press('Enter');
  const school = organisations.find((o) => o.name === 'Oakwood Elementary School');
  await page.waitForURL((url) => url.pathname === `/${encodeURIComponent(school?.id ?? '')}/analytics`);
  const schoolPage = new AnalyticsPage(page, test.info(), school?.id ?? '');
  await schoolPage.waitUntilReady();
  // A school has no schools below: its own figures, no By school table.
  await expect(page.getByRole('region', { name: 'Table By school' })).toHaveCount(0);
  await expect(schoolPage.tile(/^Students$/)).toHaveText(abbreviateNumber(oakwood?.students ?? -1));
  await schoolPage.expectAccessible({ label: 'a school of the district' });
});
