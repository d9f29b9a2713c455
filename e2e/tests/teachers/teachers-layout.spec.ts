import { expect, test } from '../../fixtures/auth.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { ANALYTICS_CHARTS, AnalyticsPage } from '../../pages/analytics-page.js';
import { LicensesPage } from '../../pages/licenses-page.js';
import { LmsPage } from '../../pages/settings-pages.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { PHONE_PROJECT } from '../../support/env.js';
import { expectNoSidewaysScroll, expectTableFits, expectTextWithin, expectWithinWidth, recordLayoutShifts, totalShift } from '../../support/layout.js';
import { listTeachers } from './teachers-api.js';

/**
 * Layout of the dashboard, Teachers and Admin, in both projects: at 1280 px names
 * beside a badge are whole and e-mails keep to one line; at 390 px the key columns (Total purchased,
 * Organization, the row menu) are on screen without scrolling sideways.
 */

const onPhone = () => test.info().project.name === PHONE_PROJECT;

test.describe('As the list loads', { tag: '@phone' }, () => {
  test('the list does not jump as its rows arrive, on a slow computer either (layout shift under 0.1)', async ({ page, organisation }) => {
    const layoutShifts = await recordLayoutShifts(page);
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    await expect(teachers.rows()).toHaveCount(10);
    await expect(page.getByText('Rows per page')).toBeVisible();
    const shifts = await layoutShifts();
    expect(totalShift(shifts), JSON.stringify(shifts)).toBeLessThan(0.1);
  });
});

test.describe('Layout at 1280 px', () => {
  test.skip(() => onPhone(), 'the desktop layout');

  test('names beside a badge are whole and e-mail addresses keep to one line', async ({ page, organisation }) => {
    const { members } = await listTeachers(page, organisation.id, { pageSize: 100 });
    const manager = members.find((m) => m.role === 400 && m.displayName);
    if (!manager) throw new Error('the demo school has a named library manager');
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    await teachers.search(manager.email);
    const row = teachers.teacherRow(manager.email);
    await expect(row.getByText('Library Manager')).toBeVisible();
    const name = row.getByText(manager.displayName, { exact: true });
    await expect(name).toBeVisible();
    // Not cut to 'A…': the whole name fits its box.
    expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth && getComputedStyle(el).textOverflow !== 'ellipsis')).toBe(true);

    await teachers.search('');
    await expect(teachers.rows()).toHaveCount(10);
    const lines = await teachers.emailCells().evaluateAll((cells) =>
      cells.map((cell) => Math.round(cell.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight))),
    );
    expect(lines).toEqual(Array.from({ length: 10 }, () => 1));
  });

  test('a line of the user card cut for lack of room shows in full on hover and on keyboard focus', async ({ page, organisations }) => {
    const longest = [...organisations].sort((a, b) => b.name.length - a.name.length)[0];
    if (!longest) throw new Error('the demo admin has organisations');
    await new LicensesPage(page, test.info(), longest.id).goto();
    const card = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: /choose organisation/ });
    const line = card.getByText(longest.name, { exact: true });
    test.skip(await line.evaluate((el) => el.scrollWidth <= el.clientWidth), `"${longest.name}" fits the navigation`);
    await card.hover();
    await expect(page.getByRole('tooltip')).toContainText(longest.name);
    await page.mouse.move(900, 600);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await card.focus();
    await expect(page.getByRole('tooltip')).toContainText(longest.name);
    await expect(card).toHaveAccessibleName(new RegExp(longest.name));
  });
});

test.describe('Layout at 390 px', { tag: '@phone' }, () => {
  test.skip(() => !onPhone(), 'the phone layout');

  test('the navigation submenus open below their item, and its chevron points down', async ({ page, organisation }) => {
    await new LicensesPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const navigation = page.getByRole('navigation', { name: 'Main navigation' });
    for (const group of ['Resources', 'Settings']) {
      const item = navigation.getByRole('button', { name: group });
      // The chevron's drawn shape: wider than tall points down, taller than wide points right.
      const chevron = await item.locator('svg').last().evaluate((svg) => {
        const box = (svg as SVGSVGElement).getBBox();
        return { width: box.width, height: box.height };
      });
      expect(chevron.width, `${group}: the chevron points down`).toBeGreaterThan(chevron.height);
      await item.click();
      const menu = page.getByRole('menu');
      await expect(menu).toBeVisible();
      const [itemBox, menuBox] = await Promise.all([item.boundingBox(), menu.boundingBox()]);
      expect(menuBox?.y ?? 0, `${group}: the menu opens below its item`).toBeGreaterThanOrEqual((itemBox?.y ?? 0) + (itemBox?.height ?? 0) - 1);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
    }
  });

  test('the dashboard shows every licence column, Total purchased included', async ({ page, organisation }) => {
    const dashboard = await new LicensesPage(page, test.info(), organisation.id).goto();
    await expectWithinWidth(page, dashboard.table().getByRole('columnheader', { name: 'Total purchased' }));
    for (const row of await dashboard.table().locator('tbody tr').all()) await expectWithinWidth(page, row.getByRole('cell').last());
    await expectNoSidewaysScroll(page);
  });

  test('Teachers keeps each row’s e-mail, details and menu on screen', async ({ page, organisation }) => {
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto();
    const { members } = await listTeachers(page, organisation.id, { pageSize: 10 });
    for (const member of members) {
      const row = teachers.teacherRow(member.email);
      await expectWithinWidth(page, row.getByText(member.email, { exact: true }));
      await expect(row).toContainText(`Signed up: ${member.pending ? 'No' : 'Yes'}`);
      await expectWithinWidth(page, teachers.rowMenuButton(member.email));
    }
    await expectNoSidewaysScroll(page);
    await expectTableFits(teachers.table());
    // The row menu works there too, checked by axe.
    await teachers.openRowMenu(members[0]?.email ?? '');
  });

  test('a teacher’s dialogs keep a long e-mail address inside them', async ({ page, organisation }) => {
    // A teacher who has not signed up has no name: the dialogs name them by their e-mail address, one long word.
    const { members } = await listTeachers(page, organisation.id, { pageSize: 100 });
    const unnamed = members.find((m) => !m.displayName.trim() && m.email.length >= 30);
    if (!unnamed) throw new Error('the demo district has a teacher without a name and with a long e-mail address');
    const teachers = await new TeachersPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    await teachers.search(unnamed.email);
    const viewer = await teachers.rowAction(unnamed.email, 'View Profile', `${unnamed.email}’s libraries`);
    if (!viewer) throw new Error('the viewer opens');
    await expectTextWithin(viewer);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    const manage = await teachers.rowAction(unnamed.email, 'Manage Teacher Libraries', 'Manage Teacher Libraries');
    if (!manage) throw new Error('the transfer dialog opens');
    await expectTextWithin(manage);
  });

  test('Analytics reflows at 320 px (WCAG 1.4.10): each chart, the pie’s labels too, stays within its card', async ({ page, organisation }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await new AnalyticsPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    await expectNoSidewaysScroll(page);
    const cards = await page.locator('section:has(svg.recharts-surface)').all();
    expect(cards, 'a card per chart').toHaveLength(ANALYTICS_CHARTS.length);
    for (const card of cards) await expectTextWithin(card);
  });

  test('LMS Integration shows the whole configuration without scrolling it sideways', async ({ page, organisation }) => {
    await new LmsPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    const table = page.getByRole('table', { name: 'LTI Configuration' });
    await expectWithinWidth(page, table.getByRole('button', { name: 'Revoke' }));
    await expectTableFits(table);
    await expectNoSidewaysScroll(page);
  });

  test('Admin keeps the Organization column and the row menu on screen', async ({ page, organisation }) => {
    const admins = await new AdminsPage(page, test.info(), organisation.id).goto();
    await expectWithinWidth(page, admins.table().getByRole('columnheader', { name: 'Organization' }));
    for (const row of await admins.rows().all()) {
      await expectWithinWidth(page, row.getByRole('cell').nth(2));
      await expectWithinWidth(page, row.getByRole('button', { name: /^Actions for / }));
      // The 2-step column gives its room up; each admin's 2-step status shows under the address instead.
      await expect(row.getByRole('cell').nth(1)).toContainText(/2-step: (Passkey|On|Off)/);
    }
    await expect(admins.table().getByRole('columnheader', { name: '2-step' })).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    await expectTableFits(admins.table());
    // Each address breaks only after its '@' or a dot: no part of it is cut over two lines ('demo.quire.s' / 'chool').
    const { parts, cut } = await admins.table().evaluate((table) => {
      const found: string[] = [];
      let checked = 0;
      for (const cell of Array.from(table.querySelectorAll('tbody td:nth-child(2) p'))) {
        for (const node of Array.from(cell.childNodes)) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent) continue;
          checked += 1;
          const range = document.createRange();
          range.selectNodeContents(node);
          if (range.getClientRects().length > 1) found.push(node.textContent);
        }
      }
      return { parts: checked, cut: found };
    });
    expect(parts, 'the addresses were read, part by part').toBeGreaterThan(await admins.rows().count());
    expect(cut, 'parts of addresses cut over two lines').toEqual([]);
  });
});
