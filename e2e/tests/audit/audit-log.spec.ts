import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { APP_PERMISSION_LABELS, auditActions } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { AdminsPage } from '../../pages/admins-page.js';
import { AuditLogPage, typeDate, type AuditScreenRow } from '../../pages/audit-page.js';
import { ImageSearchPage, LmsPage, ManageAppsPage } from '../../pages/settings-pages.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { demoAdmin, PHONE_PROJECT } from '../../support/env.js';
import { withAdminsOf } from '../../support/admins-lock.js';
import { changeableOrganisation, graphql, listLicenses, listTeachers, restoreLicense, uniqueEmails } from '../teachers/teachers-api.js';
import { changeSettings } from '../settings/settings-api.js';

/** The browser's own day (the screen's date filters are the admin's local days). */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

type CsvRecord = Record<string, string>;

/** The export as an independent parser reads it: a BOM, CRLF records, one header row. */
async function parseExport(path: string): Promise<{ raw: string; records: CsvRecord[] }> {
  const raw = await readFile(path, 'utf8');
  return { raw, records: parse(raw, { bom: true, columns: true, record_delimiter: '\r\n', skip_empty_lines: true }) as CsvRecord[] };
}

/** The screen's rows and the CSV's records name the same entries in the same order, with the same words. */
function expectSameRows(screen: AuditScreenRow[], records: CsvRecord[]): void {
  expect(records.map((r) => r['Entry id'])).toEqual(screen.map((r) => r.entryId));
  screen.forEach((row, i) => {
    const record = records[i]!;
    expect(record['Time (UTC)'], `time of ${row.entryId}`).toBe(row.time);
    expect(record.Action, `action of ${row.entryId}`).toBe(row.action);
    for (const column of ['Actor', 'Actor e-mail', 'Target', 'Details', 'IP'] as const) {
      expect(row.text, `${column} of ${row.entryId}`).toContain(record[column] ?? '');
    }
  });
}

test.describe('Audit log', () => {
  test('six changes made in the console are found with their actor, target and old → new; filtered to one by keys; exported as the screen shows', async ({ page, organisation, organisations }) => {
    test.setTimeout(240_000);
    const phone = test.info().project.name === PHONE_PROJECT;
    const org = await changeableOrganisation(page, organisations, organisation);
    // It adds an admin there: the test of the last-admin rule, which removes every other admin, waits meanwhile.
    await withAdminsOf(org.id, async () => {
      const license = (await listLicenses(page, org.id)).find((l) => !l.applyToAll && l.available > 0);
      if (!license) throw new Error('the demo organisation has a licence with seats');
      const teacher = (await listTeachers(page, org.id, { pageSize: 100 })).members.find((m) => !m.pending && m.license === null);
      if (!teacher) throw new Error('the demo organisation has a signed-up teacher without a licence');
      const [newAdmin] = uniqueEmails('audit-admin', 1) as [string];
      await changeSettings(page, org.id, { apps: { giphy: null }, imageSearch: null });
      let consumerKey = '';

      try {
        // 1 and 2: a licence assigned from the teacher's row menu, then removed.
        const teachers = await new TeachersPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
        await teachers.search(teacher.email);
        await teachers.openRowMenu(teacher.email);
        await teachers.menuItem('Assign license').hover();
        await teachers.menuItem(license.name).click();
        await teachers.dialog('Assign license').getByRole('button', { name: 'Assign' }).click();
        await expect(teachers.teacherRow(teacher.email)).toContainText(license.name);
        const remove = await teachers.rowAction(teacher.email, 'Remove license', 'Remove license');
        await remove!.getByRole('button', { name: 'Remove' }).click();
        await expect(teachers.teacherRow(teacher.email).getByText('None')).toBeVisible();

        // 3: an app's permission.
        const apps = await new ManageAppsPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
        await apps.permission('GIPHY').selectOption({ label: APP_PERMISSION_LABELS.disabled });
        await expect(apps.row('GIPHY').getByLabel('Saving GIPHY')).toHaveCount(0);

        // 4: image search.
        const imageSearch = await new ImageSearchPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
        await imageSearch.toggle().click({ force: true });
        await imageSearch.dialog('Turn off Google image search?').getByRole('button', { name: 'Turn off' }).click();
        await expect(imageSearch.toggle()).not.toBeChecked();

        // 5: an admin added.
        const admins = await new AdminsPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
        await admins.addAdmins(newAdmin);
        await expect(admins.adminRow(newAdmin).first()).toBeVisible();

        // 6: LTI credentials generated.
        const lms = await new LmsPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
        if (await lms.revokeButton().isVisible()) {
          await lms.revokeButton().click();
          await lms.dialog('Revoke LTI credentials').getByRole('button', { name: 'Confirm' }).click();
        }
        await lms.generateButton().click();
        await expect(lms.value('Key')).toHaveText(/^[0-9a-f]{32}$/);
        consumerKey = (await lms.value('Key').textContent()) ?? '';

        // Each is on the screen, newest first, by the demo admin, with its target and old → new.
        const audit = await new AuditLogPage(page, test.info(), org.id).goto();
        const rows = await audit.readRows();
        const find = (action: string, target: string) => {
          const row = rows.find((r) => r.action === action && r.text.includes(target));
          expect(row, `${action} of ${target} is on the screen`).toBeDefined();
          expect(row!.text).toContain(demoAdmin.email);
          return row!;
        };
        const teacherName = teacher.displayName ? `${teacher.displayName} <${teacher.email}>` : teacher.email;
        const expected = [
          { row: find(`${auditActions['licenses.assign'].label} ${license.name}`, teacherName), change: `license: none → ${license.name}` },
          { row: find(`${auditActions['licenses.remove'].label} ${license.name}`, teacherName), change: `license: ${license.name} → (none)` },
          { row: find(auditActions['settings.update'].label, 'GIPHY'), change: `GIPHY: (none) → ${APP_PERMISSION_LABELS.disabled}` },
          { row: find(auditActions['settings.update'].label, 'Image search'), change: 'Image search: (none) → Moderated safe images only (Pixabay)' },
          { row: find(auditActions['admins.import'].label, newAdmin), change: '' },
          { row: find(auditActions['lti.generate'].label, consumerKey), change: '' },
        ];
        for (const { row, change } of expected) if (change) expect(row.text).toContain(change);
        // Newest first: the order they were made in, reversed.
        const positions = expected.map(({ row }) => rows.indexOf(row));
        expect([...positions].sort((a, b) => b - a)).toEqual(positions);
        if (phone) {
          // The columns a phone has no room for are under the action, named.
          await expect(audit.table().getByRole('columnheader')).toHaveText(['Time', 'Action']);
          await expect(audit.rowOf(expected[4]!.row.entryId)).toContainText(`Target: ${newAdmin}`);
        } else {
          await expect(audit.table().getByRole('columnheader')).toHaveText(['Time', 'Actor', 'Action', 'Target', 'Details', 'IP']);
        }

        // The whole view exported matches the screen row for row (an independent parser reads it).
        const all = await audit.exportCsv();
        expect(all.suggestedFilename()).toBe('audit-log.csv');
        const whole = await parseExport(await all.path());
        expect(whole.raw.startsWith('\uFEFF')).toBe(true);
        expect(whole.raw).toMatch(/\r\n$/);
        // The export holds the entries made before it (its own record is the next one): the screen's, any another test
        // made in the meantime (newer than the screen's first row) and, when the organisation has more than a page, the
        // older ones after the screen's last row.
        const shownFirst = rows[0]!.time;
        const upToScreen = whole.records.filter((r) => (r['Time (UTC)'] ?? '') <= shownFirst);
        expect(upToScreen.length).toBeGreaterThanOrEqual(rows.length);
        expectSameRows(rows, upToScreen.slice(0, rows.length));

        // Filtered down to one by key presses: actor, action (chosen in the list), target, today as from and to.
        await audit.actor().focus();
        await page.keyboard.type(demoAdmin.email);
        await page.keyboard.press('Tab');
        await expect(audit.action()).toBeFocused();
        await page.keyboard.type('Added adm');
        await expect(page.getByRole('option', { name: auditActions['admins.import'].label })).toBeVisible();
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await page.keyboard.press('Escape');
        await audit.target().focus();
        await page.keyboard.type(newAdmin);
        await typeDate(page, audit.from(), today());
        await typeDate(page, audit.to(), today());
        await audit.applyButton().focus();
        await page.keyboard.press('Enter');
        await expect(page).toHaveURL(/[?&]action=admins\.import(&|$)/);
        await expect(audit.rows()).toHaveCount(1);
        const one = await audit.readRows();
        expect(one.map((r) => r.entryId)).toEqual([expected[4]!.row.entryId]);
        await audit.expectAccessible({ label: 'filtered to one' });

        // A link reproduces the view.
        const url = page.url();
        await page.reload();
        await audit.waitUntilReady();
        await expect(audit.rows()).toHaveCount(1);
        await expect(audit.target()).toHaveValue(newAdmin);
        expect(page.url()).toBe(url);

        const filtered = await parseExport(await (await audit.exportCsv()).path());
        expectSameRows(one, filtered.records);
        expect(filtered.records[0]).toMatchObject({ 'Actor e-mail': demoAdmin.email, 'Action code': 'admins.import', 'Target ids': newAdmin, Outcome: 'success' });

        // The export itself was recorded, among the newest entries: other specs change the same demo organisation
        // meanwhile, so an entry of theirs may come after it.
        await audit.clearButton().click();
        await expect(page).toHaveURL(/\/audit$/);
        await expect(audit.rows().getByRole('button', { name: auditActions['audit.export'].label, exact: true }).first()).toBeVisible();
      } finally {
        await changeSettings(page, org.id, { apps: { giphy: null }, imageSearch: null });
        await restoreLicense(page, org.id, teacher.id, null);
        await graphql(page, 'mutation deleteAdmins($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }', { orgId: org.id, emails: [newAdmin] }).catch(() => undefined);
      }
    });
  });

  test('by keyboard alone: the filters, a row opened in full and closed, focus back on its action', { tag: '@phone' }, async ({ page, organisation }) => {
    const audit = await new AuditLogPage(page, test.info(), organisation.id).goto({ accessible: 'checked elsewhere' });
    await expect(audit.rows().first()).toBeVisible();
    await audit.actor().focus();
    await page.keyboard.type('demo');
    await page.keyboard.press('Tab');
    // Several actions: each chosen from the list by its keys.
    await page.keyboard.type('Signed in');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Exported the');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/[?&]action=console\.sign_in%2Caudit\.export(&|$)|[?&]action=console\.sign_in,audit\.export(&|$)/);
    await expect(page).toHaveURL(/[?&]actor=demo(&|$)/);
    // The table keeps the previous answer on screen until the filtered one arrives (its loader may not have shown yet
    // when the URL changes), so wait for rows of the chosen actions only.
    const chosen: string[] = [auditActions['console.sign_in'].label, auditActions['audit.export'].label];
    await expect
      .poll(async () => {
        const rows = await audit.readRows();
        return rows.length > 0 && rows.every((row) => chosen.includes(row.action));
      })
      .toBe(true);

    // Tab reaches the first row's time (its UTC time shows on focus) and then its action.
    const first = audit.rows().first();
    await audit.applyButton().focus();
    for (let i = 0; i < 10 && !(await first.locator('time').evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(first.locator('time')).toBeFocused();
    await expect(page.getByRole('tooltip')).toContainText('UTC');
    await page.keyboard.press('Tab');
    await expect(audit.actionButton(first)).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = audit.dialog('Audit entry');
    await expect(dialog).toBeVisible();
    await audit.expectAccessible({ include: '[role="dialog"]', label: 'entry dialog' });
    await expect(dialog).toContainText(demoAdmin.email);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(audit.actionButton(first)).toBeFocused();
  });

  test('says so when nothing matches, and when the log cannot be read, with a Retry that reads it again', { tag: '@phone' }, async ({ page, organisation }) => {
    const audit = await new AuditLogPage(page, test.info(), organisation.id, '?target=no-such-target-anywhere').goto({ accessible: 'checked elsewhere' });
    await expect(page.getByRole('status').filter({ hasText: 'No entries match these filters' })).toBeVisible();
    await audit.expectAccessible({ label: 'no entries match' });

    let fail = true;
    await page.route((url) => url.pathname.endsWith('/audit-events'), async (route) => {
      if (fail) await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal_error', message: 'Something went wrong' }) });
      else await route.fallback();
    });
    await audit.clearButton().click();
    await expect(page.getByText('Something went wrong loading the audit log')).toBeVisible();
    await audit.expectAccessible({ label: 'load failed' });
    fail = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(audit.rows().first()).toBeVisible();
  });
});
