import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { expect, test } from '../../fixtures/auth.js';
import { RosteringPage } from '../../pages/settings-pages.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { changeableOrganisation, listLicenses } from '../teachers/teachers-api.js';

/** The 1EdTech-style OneRoster 1.2 sample set the server's tests use. */
const FIXTURES = new URL('../../../apps/server/test/fixtures/oneroster-1.2/', import.meta.url);

// The zip is written by Python's zipfile, a writer independent of the reader the server uses.
const ZIP_SCRIPT = `
import json, sys, zipfile, io
spec = json.load(sys.stdin)
out = io.BytesIO()
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for name, data in spec.items():
        z.writestr(name, data)
sys.stdout.buffer.write(out.getvalue())
`;
const zip = (files: Record<string, string>): Buffer => execFileSync('python3', ['-c', ZIP_SCRIPT], { input: JSON.stringify(files) });

/**
 * The sample set made unique to this run: its people get sourcedIds and addresses no other test (or earlier run)
 * uses, so the import adds them and no other spec's teacher counts move.
 */
function sampleSet(stamp: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(FIXTURES)) {
    files[name] = readFileSync(new URL(name, FIXTURES), 'utf8')
      .replaceAll('usr-', `usr-${stamp}-`)
      .replaceAll(/([a-z]+)@((?:student\.)?springfield|home)\.example\.org/g, `e2e-roster-${stamp}-$1@$2.example.org`);
  }
  return files;
}

const DELTA_ABSENT = ['orgs', 'academicSessions', 'classes', 'enrollments'];

/** A delta set: Edna renamed, Elizabeth retired (tobedeleted). */
function deltaSet(full: Record<string, string>, stamp: string): Record<string, string> {
  let manifest = full['manifest.csv']!.replace('file.users,bulk', 'file.users,delta').replace('file.roles,bulk', 'file.roles,delta');
  for (const file of DELTA_ABSENT) manifest = manifest.replace(`file.${file},bulk`, `file.${file},absent`);
  const line = (csv: string, prefix: string) => csv.split(/\r?\n/).find((l) => l.startsWith(prefix))!;
  const header = (csv: string) => csv.split(/\r?\n/)[0]!;
  const users = full['users.csv']!;
  const edna = line(users, `usr-${stamp}-t-0001,`).replace(',,,true,', ',active,2026-01-10T08:00:00Z,true,').replace(',Edna,Krabappel,', ',Edna,Flanders,');
  const elizabeth = line(users, `usr-${stamp}-t-0002,`).replace(',,,true,', ',tobedeleted,2026-01-10T08:00:00Z,true,');
  const roles = full['roles.csv']!;
  const ednaRole = line(roles, 'role-0001,').replace('role-0001,,,', 'role-0001,active,2026-01-10T08:00:00Z,');
  return {
    'manifest.csv': manifest,
    'users.csv': `${header(users)}\n${edna}\n${elizabeth}\n`,
    'roles.csv': `${header(roles)}\n${ednaRole}\n`,
  };
}

/** Chooses the file by keyboard: Space on the focused file input opens the chooser, which is answered with the zip. */
async function chooseFileByKeyboard(page: Page, rostering: RosteringPage, name: string, buffer: Buffer): Promise<void> {
  await rostering.fileInput().focus();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  await (await chooser).setFiles({ name, mimeType: 'application/zip', buffer });
}

/** The text of a downloaded file. */
async function readDownload(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Presses Enter on a button reached by focus (the keyboard path of the thing under test). */
async function pressOn(page: Page, button: ReturnType<Page['getByRole']>): Promise<void> {
  await button.focus();
  await page.keyboard.press('Enter');
}

/** Confirms the preview by keyboard and waits for the job to finish; axe runs on the progress when it is on screen. */
async function confirmAndWait(page: Page, rostering: RosteringPage, fileName: string): Promise<void> {
  await pressOn(page, rostering.confirmButton());
  const applying = page.getByRole('heading', { name: `Applying ${fileName}` });
  const applied = page.getByRole('heading', { name: `Applied ${fileName}` });
  await expect(applying.or(applied)).toBeVisible();
  // A handful of rows may be done before the page polls again: the progress is checked whenever it is seen.
  // The job may finish between two of these looks (the import is small): the progress is checked while it shows.
  if (await applying.isVisible()) {
    const progress = page.getByText(/^(Waiting to start…|\d+ of \d+ rows done)$/);
    await expect(progress.or(applied)).toBeVisible();
    if (await progress.isVisible()) {
      await expect(page.getByRole('progressbar', { name: 'Rows done' }).or(applied)).toBeAttached();
      await rostering.expectAccessible({ label: 'rostering progress' });
    }
  }
  await expect(applied).toBeVisible({ timeout: 30_000 });
  await expect(applied).toBeFocused();
}

test.describe('Rostering', () => {
  test('an admin imports a OneRoster export by keyboard, sees its teachers, then a delta that renames one and retires another', async ({
    page,
    organisation,
    organisations,
  }) => {
    test.setTimeout(180_000);
    const org = await changeableOrganisation(page, organisations, organisation);
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const full = sampleSet(stamp);
    const email = (name: string) => `e2e-roster-${stamp}-${name}@springfield.example.org`;
    await page.goto(`/${encodeURIComponent(org.id)}`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });

    // Settings › Rostering, by keyboard.
    await pressOn(page, page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Settings' }));
    const item = page.getByRole('menuitem', { name: 'Rostering' });
    await expect(item).toBeVisible();
    for (let presses = 0; presses < 8 && !(await item.evaluate((el) => el === document.activeElement)); presses += 1) {
      await page.keyboard.press('ArrowDown');
    }
    await expect(item).toBeFocused();
    await page.keyboard.press('Enter');
    const rostering = new RosteringPage(page, test.info(), org.id);
    await expect(page).toHaveURL(new RegExp(`${rostering.path}$`));
    await rostering.waitUntilReady();
    await rostering.expectAccessible({ label: 'rostering page' });

    // The export's district and both schools are this organisation.
    const ids = page.getByLabel(`OneRoster id of ${org.name}`);
    await ids.focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('org-district-001, org-school-101, org-school-102');
    await pressOn(page, page.getByRole('button', { name: 'Save OneRoster ids' }));
    await expect(rostering.notification('OneRoster ids saved')).toBeVisible();

    // Upload the full export by keyboard: the preview counts, nothing changed yet.
    await chooseFileByKeyboard(page, rostering, 'springfield.zip', zip(full));
    await pressOn(page, rostering.uploadButton());
    await expect(page.getByRole('heading', { name: 'Preview of springfield.zip' })).toBeFocused({ timeout: 20_000 });
    await expect(rostering.count('To add')).toHaveText('5');
    await expect(rostering.count('To update')).toHaveText('0');
    // Not 'To retire': on a retry in the same database, this full import retires the people the earlier attempt added.
    await expect(rostering.count('Errors')).toHaveText('0');
    await expect(rostering.count('Students \\(counted, not imported\\)')).toHaveText('2');
    await expect(page.getByRole('table', { name: 'People to add' })).toContainText('Edna Krabappel');
    await rostering.expectAccessible({ label: 'rostering preview' });

    await confirmAndWait(page, rostering, 'springfield.zip');
    await rostering.expectAccessible({ label: 'rostering applied' });

    // The teachers, with their names and the roles their SIS gave them, on the Teachers screen.
    const teachers = await new TeachersPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
    for (const [name, who, role] of [['ekrabappel', 'Edna Krabappel', 'teacher'], ['ehoover', 'Elizabeth Hoover', 'teacher'], ['sskinner', 'Seymour Skinner', 'principal']] as const) {
      await teachers.search(email(name));
      await expect(teachers.teacherRow(email(name))).toContainText(who);
      await expect(page.getByRole('columnheader', { name: 'Roster role' })).toBeVisible();
      await expect(teachers.teacherRow(email(name)).getByRole('cell').filter({ hasText: new RegExp(`^${role}$`) })).toHaveCount(1);
    }
    await teachers.expectAccessible({ label: 'teachers with their roster roles' });

    // A delta: Edna renamed, Elizabeth retired.
    await rostering.goto({ accessible: 'checked elsewhere' });
    await chooseFileByKeyboard(page, rostering, 'springfield-delta.zip', zip(deltaSet(full, stamp)));
    await pressOn(page, rostering.uploadButton());
    await expect(page.getByRole('heading', { name: 'Preview of springfield-delta.zip' })).toBeFocused({ timeout: 20_000 });
    await expect(rostering.count('To add')).toHaveText('0');
    await expect(rostering.count('To update')).toHaveText('1');
    await expect(rostering.count('To retire')).toHaveText('1');
    await expect(page.getByRole('table', { name: 'People to update' })).toContainText('Edna Flanders');
    await expect(page.getByRole('table', { name: 'People to retire' })).toContainText('Elizabeth Hoover');
    await confirmAndWait(page, rostering, 'springfield-delta.zip');

    // The history lists both imports, newest first, with who ran them and their counts.
    const history = rostering.historyTable();
    const deltaRow = history.getByRole('row').filter({ hasText: 'springfield-delta.zip' }).first();
    await expect(deltaRow).toContainText('0 added, 1 updated, 1 retired, 0 errors');
    await expect(deltaRow).toContainText('Applied');
    await expect(history.getByRole('row').filter({ hasText: /^(?!.*delta).*springfield\.zip/ }).first()).toContainText('5 added, 0 updated');
    await rostering.expectAccessible({ label: 'rostering history' });

    // At 390 px the history drops columns and the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(history.getByRole('columnheader', { name: 'By' })).toHaveCount(0);
    await expect(deltaRow).toContainText('Applied: 0 added, 1 updated, 1 retired');
    // The table gives its columns up once its frame is measured narrow, a frame after the resize: wait for the layout.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await rostering.expectAccessible({ label: 'rostering history at 390 px' });
    await page.setViewportSize({ width: 1280, height: 720 });

    // Edna under her new name; Elizabeth under Inactive.
    await teachers.goto({ accessible: 'checked elsewhere' });
    await teachers.search(email('ekrabappel'));
    await expect(teachers.teacherRow(email('ekrabappel'))).toContainText('Edna Flanders');
    await teachers.search(email('ehoover'));
    await expect(teachers.teacherRow(email('ehoover'))).toHaveCount(0);
    await teachers.openTab('Inactive');
    await teachers.search(email('ehoover'));
    await expect(teachers.teacherRow(email('ehoover'))).toContainText('Elizabeth Hoover');
  });

  test('Preview again after matching another org, the errors as CSV, and a named licence the rostered teachers then hold', async ({ page, organisation, organisations }) => {
    test.setTimeout(180_000);
    const org = await changeableOrganisation(page, organisations, organisation);
    // A licence of the organisation with seats for the five teachers, named by a name no other of its licences has.
    const licences = await listLicenses(page, org.id);
    const licence = licences.find((l) => !l.applyToAll && l.available >= 5 && licences.filter((o) => o.name.toLowerCase() === l.name.toLowerCase()).length === 1);
    expect(licence, 'the demo organisation has a licence with five free seats').toBeDefined();
    const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const email = (name: string) => `e2e-roster-${stamp}-${name}@springfield.example.org`;
    const rostering = new RosteringPage(page, test.info(), org.id);
    await rostering.goto({ accessible: 'checked elsewhere' });

    // Only the district and the middle school are matched: the elementary school's people are errors (Dewey, of the
    // middle school, also teaches at the elementary one: he is placed by his primary org).
    const ids = page.getByLabel(`OneRoster id of ${org.name}`);
    const saveIds = async (text: string) => {
      await ids.focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(text);
      await pressOn(page, page.getByRole('button', { name: 'Save OneRoster ids' }));
      await expect(rostering.notification('OneRoster ids saved').last()).toBeVisible();
    };
    await saveIds('org-district-001, org-school-102');

    // The licence choice, by keyboard: from None, the arrow key moves to "A named licence"; then its name is typed.
    await page.getByRole('radio', { name: 'None' }).focus();
    await expect(page.getByRole('radio', { name: 'None' })).toBeChecked();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('radio', { name: 'A named licence' })).toBeChecked();
    await page.getByLabel('Licence name').focus();
    await page.keyboard.type(licence!.name);

    await chooseFileByKeyboard(page, rostering, 'springfield-choices.zip', zip(sampleSet(stamp)));
    await pressOn(page, rostering.uploadButton());
    await expect(page.getByRole('heading', { name: 'Preview of springfield-choices.zip' })).toBeFocused({ timeout: 20_000 });
    await expect(rostering.count('To add')).toHaveText('2');
    await expect(rostering.count('Errors')).toHaveText('3');
    const unmatched = page.getByRole('note').filter({ hasText: 'OneRoster orgs not matched' });
    await expect(unmatched).toContainText('org-school-101');
    await rostering.expectAccessible({ label: 'rostering preview with an unmatched org and an error' });

    // The errors as CSV, read with a CSV parser: the row names the file, the line, the column and the reason.
    const download = page.waitForEvent('download');
    await pressOn(page, page.getByRole('button', { name: 'Download errors (CSV) of springfield-choices.zip' }).first());
    const file = await download;
    expect(file.suggestedFilename()).toBe('springfield-choices-errors.csv');
    const rows = parse(await readDownload(file), { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows, JSON.stringify(rows)).toHaveLength(3);
    expect(Object.keys(rows[0]!)).toEqual(['file', 'line', 'column', 'reason']);
    // Edna, on line 2 of users.csv, belongs to the elementary school only.
    expect(rows[0]).toMatchObject({ file: 'users.csv', line: '2', column: 'orgSourcedIds' });
    expect(rows[0]!.reason).toContain('unknown org org-school-101');

    // The elementary school matched too, the preview worked out again: everyone is added, no errors.
    await saveIds('org-district-001, org-school-101, org-school-102');
    await pressOn(page, unmatched.getByRole('button', { name: 'Preview again' }));
    await expect(rostering.count('Errors')).toHaveText('0');
    await expect(rostering.count('To add')).toHaveText('5');
    await expect(unmatched).toHaveCount(0);
    await rostering.expectAccessible({ label: 'rostering preview worked out again' });

    await confirmAndWait(page, rostering, 'springfield-choices.zip');

    // The rostered teachers hold the named licence on the Teachers screen.
    const teachers = await new TeachersPage(page, test.info(), org.id).goto({ accessible: 'checked elsewhere' });
    for (const name of ['ekrabappel', 'ehoover', 'dlargo', 'sskinner', 'gchalmers']) {
      await teachers.search(email(name));
      await expect(teachers.teacherRow(email(name))).toContainText(licence!.name);
    }
  });
});
