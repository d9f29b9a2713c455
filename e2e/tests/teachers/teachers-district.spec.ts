import type { Download, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { membersPageSchema, type MembersPage } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { checked } from '../../support/contracts.js';
import { PHONE_PROJECT } from '../../support/env.js';
import { expectNoSidewaysScroll } from '../../support/layout.js';

/**
 * A district's Teachers screen (docs/districts.md, "District views"): the demo's Riverside Unified School District is
 * a district over Oakwood Elementary School and Willow Creek Primary School, and the demo admin administers all three.
 */

const DISTRICT = 'Riverside Unified School District';
const OAKWOOD = 'Oakwood Elementary School';
const WILLOW = 'Willow Creek Primary School';
const onPhone = () => test.info().project.name === PHONE_PROJECT;

async function districtList(page: Page, orgId: string, query: Record<string, string | number> = {}): Promise<MembersPage> {
  const params = new URLSearchParams(Object.entries({ view: 'district', page: 1, pageSize: 100, ...query }).map(([k, v]) => [k, String(v)]));
  const answer = await page.request.get(`/payments/v1/admin/organisations/${encodeURIComponent(orgId)}/members/teachers?${params}`);
  expect(answer.ok()).toBeTruthy();
  return checked(membersPageSchema, await answer.json(), 'GET …/members/teachers?view=district');
}

async function readDownload(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '');
}

test.describe("A district's Teachers", () => {
  test('lists the teachers of its schools with their School, filters by school from the keyboard, and exports one CSV with a School column', { tag: '@phone' }, async ({ page, organisations }) => {
    const district = organisations.find((o) => o.name === DISTRICT)!;
    const teachers = await new TeachersPage(page, test.info(), district.id).goto();
    await expect(page.getByText(`Teachers of ${DISTRICT} and its 2 schools`)).toBeVisible();
    const willowId = organisations.find((o) => o.name === WILLOW)!.id;
    const everyone = await districtList(page, district.id, { pageSize: 10 });
    const willowTotal = (await districtList(page, district.id, { school: willowId, pageSize: 10 })).total;
    expect(willowTotal).toBeGreaterThan(0);
    expect(willowTotal).toBeLessThan(everyone.total);

    // The first page as the server answers it, each row with its school.
    const first = await districtList(page, district.id, { pageSize: 10 });
    await expect(teachers.emailCells()).toHaveText(first.members.map((m) => m.email));
    for (const member of first.members.slice(0, 3)) {
      await expect(teachers.teacherRow(member.email)).toContainText(member.organisation!.name);
    }
    if (!onPhone()) await expect(teachers.table().getByRole('columnheader', { name: 'School' })).toBeVisible();

    // The School filter, by keyboard alone: focus, open with the arrow key, move to Willow Creek, Enter.
    const school = teachers.filter('School');
    await school.focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox')).toBeVisible();
    await teachers.expectAccessible({ label: 'School filter open' });
    const highlighted = page.getByRole('listbox').locator('[data-combobox-selected]');
    for (let i = 0; i < 6; i++) {
      if ((await highlighted.count()) > 0 && (await highlighted.textContent()) === WILLOW) break;
      await page.keyboard.press('ArrowDown');
    }
    await expect(highlighted).toHaveText(WILLOW);
    await page.keyboard.press('Enter');
    await expect(school).toHaveValue(WILLOW);
    await expect(school).toBeFocused();
    await expect(teachers.rows()).toHaveCount(Math.min(10, willowTotal));
    await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
    for (const row of await teachers.rows().all()) await expect(row).toContainText(WILLOW);
    await teachers.expectAccessible({ label: 'filtered by school' });

    // Back to every school by keyboard too (the list opens on the choice made; up to 'All'), then the whole list as one file.
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox')).toBeVisible();
    for (let i = 0; i < 8; i++) {
      if ((await highlighted.count()) > 0 && (await highlighted.textContent()) === 'All') break;
      await page.keyboard.press('ArrowUp');
    }
    await expect(highlighted).toHaveText('All');
    await page.keyboard.press('Enter');
    await expect(school).toHaveValue('All');
    await expect(teachers.emailCells()).toHaveText(first.members.map((m) => m.email));
    const dialog = await teachers.openDialog(teachers.exportButton(), 'Export as CSV');
    await dialog.getByRole('radio', { name: /^All teachers/ }).check();
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Export' }).click();
    const lines = (await readDownload(await download)).trim().split('\r\n');
    // The spec's columns and School; Roster role last once a OneRoster import has rostered teachers of the district
    // (the rostering spec may have, on the same demo data, before this one).
    expect(lines[0]).toMatch(/^Email,Name,School,Signed up,License,Certification(,Roster role)?$/);
    // Other specs add and remove teachers of these schools while this one runs (the suite shares its demo data): the
    // file holds the district's teachers as they were at some moment between the count before it and the count after.
    const after = (await districtList(page, district.id, { pageSize: 10 })).total;
    expect(lines.length - 1).toBeGreaterThanOrEqual(Math.min(everyone.total, after));
    expect(lines.length - 1).toBeLessThanOrEqual(Math.max(everyone.total, after));
    // Read with a CSV parser: a name with a comma is quoted, and splitting on commas would read it as two fields.
    const records = parse(lines.join('\r\n'), { bom: true, columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>;
    for (const name of [OAKWOOD, WILLOW]) expect(records.some((record) => record.School === name), name).toBe(true);
  });

  test('at 390 px shows each row’s school under its e-mail, with nothing off screen sideways', { tag: '@phone' }, async ({ page, organisations }) => {
    test.skip(!onPhone(), 'the phone layout');
    const district = organisations.find((o) => o.name === DISTRICT)!;
    const teachers = await new TeachersPage(page, test.info(), district.id).goto();
    const first = await districtList(page, district.id, { pageSize: 10 });
    await expect(teachers.teacherRow(first.members[0]!.email)).toContainText(`School: ${first.members[0]!.organisation!.name}`);
    await expect(teachers.filter('School')).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('sorts by School from its header by keyboard, as the server orders them', async ({ page, organisations }) => {
    test.skip(onPhone(), 'the phone layout has no column headers (its sort is the e-mail)');
    const district = organisations.find((o) => o.name === DISTRICT)!;
    const teachers = await new TeachersPage(page, test.info(), district.id).goto({ accessible: 'checked elsewhere' });
    const header = teachers.table().getByRole('columnheader', { name: /^School/ });
    await header.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
    const bySchool = await districtList(page, district.id, { pageSize: 10, sort: 'school', dir: 'asc' });
    await expect(teachers.emailCells()).toHaveText(bySchool.members.map((m) => m.email));
    await page.keyboard.press('Enter');
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(page.locator('table[aria-busy="true"]')).toHaveCount(0);
    const descending = await districtList(page, district.id, { pageSize: 10, sort: 'school', dir: 'desc' });
    await expect(teachers.emailCells()).toHaveText(descending.members.map((m) => m.email));
    await teachers.expectAccessible({ label: 'sorted by school' });
  });

  test("a school's own Teachers screen has no School column or filter", async ({ page, organisations }) => {
    const oakwood = organisations.find((o) => o.name === OAKWOOD)!;
    const teachers = await new TeachersPage(page, test.info(), oakwood.id).goto();
    await expect(teachers.rows().first()).toBeVisible();
    await expect(teachers.filter('School')).toHaveCount(0);
    await expect(teachers.table().getByRole('columnheader', { name: 'School' })).toHaveCount(0);
  });
});
