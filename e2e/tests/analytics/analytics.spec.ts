import { readFile } from 'node:fs/promises';
import type { Page, Route } from '@playwright/test';
import { abbreviateNumber, analyticsMessages, analyticsSessionSchema, type AnalyticsSession } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { ANALYTICS_CHARTS, AnalyticsPage } from '../../pages/analytics-page.js';

// Six charts with tables on a shared, busy machine: more time than the default minute.
test.describe.configure({ timeout: 300_000 });

const EMPTY_SCHOOL = 'Willow Creek Primary School';
const SESSION_CHARTS = ANALYTICS_CHARTS.filter((c) => c !== 'Books created');
/**
 * The screen as it opens (weekly, six charts) is checked with axe by the first test; the tests that open it only to
 * go on to another state skip that repeat (each state they reach is checked where they reach it).
 */
const CHECKED_BY_FIRST_TEST = { accessible: 'checked elsewhere' } as const;

async function analyticsSession(page: Page, orgId: string): Promise<AnalyticsSession> {
  const answer = await page.request.get(`/analytics/sessions/app/organisations/${encodeURIComponent(orgId)}`);
  expect(answer.status()).toBe(200);
  return analyticsSessionSchema.parse(await answer.json());
}

test.describe('Analytics on the demo district', () => {
  test('shows the tiles, the note and every chart at its height, weekly by default', async ({ page, organisation }) => {
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto();
    await expect(page.getByText('From July 1st 2023, a web analytics service is no longer used for this data.')).toBeVisible();
    await expect(analytics.timeOption('Weekly')).toBeChecked();

    // Tiles show the server's counts, abbreviated.
    const session = await analyticsSession(page, organisation.id);
    for (const [label, url] of [['Students', session.urls.studentsCount], ['Libraries', session.urls.librariesCount], ['Books', session.urls.booksCount]] as const) {
      const { count } = (await (await page.request.get(url)).json()) as { count: number };
      expect(count).toBeGreaterThan(0);
      await expect(analytics.tile(new RegExp(`^${label}$`))).toHaveText(abbreviateNumber(count));
    }
    await expect(analytics.tile(/^Session duration \(hours\)/)).toHaveText(/^\d+(\.\d)?[kMGTPE]?$/);
    await expect(analytics.tile(/^Books created/)).toHaveText(/^\d+(\.\d)?[kMGTPE]?$/);

    for (const title of ANALYTICS_CHARTS) {
      const image = analytics.chartImage(title);
      await expect(image, title).toBeVisible();
      const box = await image.boundingBox();
      expect(box?.height, title).toBe(title === 'Sessions by OS' ? 300 : 400);
      await expect(analytics.chart(title).getByText(analyticsMessages.noData)).toHaveCount(0);
    }
  });

  test('works by keyboard alone: time options, the data table and the CSV download', async ({ page, organisation }) => {
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto(CHECKED_BY_FIRST_TEST);
    await analytics.timeOption('Weekly').focus();
    await page.keyboard.press('ArrowRight');
    await expect(analytics.timeOption('Monthly')).toBeChecked();
    await analytics.waitForFigures();
    await analytics.expectAccessible({ label: 'monthly' });
    // 18 months back, by month: 19 periods (the current month included).
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(analytics.timeOption('Last 30 days')).toBeChecked();
    await analytics.waitForFigures();
    await analytics.expectAccessible({ label: 'last 30 days' });

    // Tab from the time options to the first chart's data table button.
    const button = analytics.tableButton('Sessions');
    for (let i = 0; i < 20 && !(await button.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(button).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const table = analytics.dataTable('Sessions');
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveText(['Date', 'Students', 'Teachers', 'Total']);
    await expect(table.locator('tbody tr')).toHaveCount(30);
    await expect(table.locator('tfoot')).toContainText('Total');
    await analytics.expectAccessible({ label: 'data table open' });

    await page.keyboard.press('Tab');
    await expect(analytics.downloadButton('Sessions')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('region', { name: 'Data table of Sessions' })).toBeFocused();

    await analytics.downloadButton('Sessions').focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^maple-grove-high-school-last-30-days-\d{8}-\d{8}-sessions\.csv$/);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv.startsWith('\uFEFFDate,Students,Teachers,Total\r\n')).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines).toHaveLength(1 + 30 + 1 + 1); // header, 30 days, total, final CRLF
    expect(lines[31]).toMatch(/^Total,\d+,\d+,\d+$/);
  });

  test('names each operating system, provider and domain in its table', async ({ page, organisation }) => {
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto(CHECKED_BY_FIRST_TEST);
    await analytics.tableButton('Sessions by OS').click();
    const headers = await analytics.dataTable('Sessions by OS').getByRole('columnheader').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Date', 'Windows', 'ChromeOS', 'macOS', 'iOS', 'Android', 'Students', 'Teachers', 'Total']));
    await analytics.tableButton('Sessions by sign-in provider').click();
    // Providers by their names, not their ids ('google', 'office365').
    const providers = await analytics.dataTable('Sessions by sign-in provider').getByRole('columnheader').allTextContents();
    expect(providers).toEqual(expect.arrayContaining(['Google', 'Office 365']));
    expect(providers).not.toContain('google');
    expect(providers).not.toContain('office365');
    await analytics.tableButton('Session duration (hours)').click();
    await expect(analytics.dataTable('Session duration (hours)').getByRole('columnheader', { name: 'Total (hours)' })).toBeVisible();
    await analytics.expectAccessible({ label: 'tables open' });
  });

  test("names each e-mail domain whole in the chart's legend, as in its table", async ({ page, organisation }) => {
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto(CHECKED_BY_FIRST_TEST);
    await analytics.tableButton('E-mail domains').click();
    const headers = await analytics.dataTable('E-mail domains').getByRole('columnheader').allTextContents();
    const domains = headers.filter((h) => !['Date', 'Students', 'Teachers', 'Total'].includes(h));
    expect(domains.length, headers.join(', ')).toBeGreaterThan(1);
    expect(domains.every((d) => d.includes('.')), 'the demo district has whole domains').toBe(true);
    await analytics.tableButton('E-mail domains').click();
    await expect(analytics.dataTable('E-mail domains')).toBeHidden();
    // With the table closed, each name shows once more: in the legend.
    for (const domain of domains) await expect(analytics.chart('E-mail domains').getByText(domain, { exact: true }).filter({ visible: true }), domain).toHaveCount(1);
  });

  test('keeps working when a tab wakes up hours later: data requests renew the expired signed URLs first', async ({ page, organisation }) => {
    // The timer that renews the session is covered by the console's unit tests; here the browser's clock
    // jumps three hours ahead without running timers, as in a laptop woken from sleep.
    await page.clock.install();
    let sessions = 0;
    page.on('request', (r) => {
      if (r.url().includes('/analytics/sessions/app/organisations/')) sessions++;
    });
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto(CHECKED_BY_FIRST_TEST);
    const before = sessions;
    await page.clock.setSystemTime(Date.now() + 3 * 3600_000);
    await analytics.chooseTimeOption('Monthly');
    expect(sessions).toBeGreaterThan(before);
    for (const title of ANALYTICS_CHARTS) await expect(analytics.chart(title).getByRole('alert'), title).toHaveCount(0);
    await expect(analytics.chartImage('Sessions')).toBeVisible();
  });

  test('shows each failure where it happened: a tile, the session charts, the books chart', async ({ page, organisation }) => {
    await page.route('**/analytics/users/organisations/*/students/count?*', (route) => route.fulfill({ status: 500, json: { code: 'internal_error', message: 'Something went wrong' } }));
    await page.route('**/analytics/data/app/organisations/**', (route) => route.fulfill({ status: 500, json: { code: 'internal_error', message: 'Something went wrong' } }));
    await page.route('**/analytics/users/organisations/*/books/count/periodic?*', (route) => route.fulfill({ status: 500, json: { code: 'internal_error', message: 'Something went wrong' } }));
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto();
    await expect(analytics.tile(/^Students$/)).toContainText(analyticsMessages.tileFailed);
    await expect(analytics.tile(/^Libraries$/)).toHaveText(/^\d+(\.\d)?[kMGTPE]?$/);
    await expect(analytics.tile(/^Books$/)).toHaveText(/^\d+(\.\d)?[kMGTPE]?$/);
    for (const title of SESSION_CHARTS) await expect(analytics.chart(title).getByRole('alert'), title).toContainText(analyticsMessages.customFailed);
    await expect(analytics.chart('Books created').getByRole('alert')).toContainText(analyticsMessages.dbFailed);
  });

  test('a tile keeps its height when its figure arrives, so nothing below it moves', async ({ page, organisation }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/analytics/users/organisations/*/students/count?*', async (route) => {
      await held;
      await route.continue();
    });
    const analytics = new AnalyticsPage(page, test.info(), organisation.id);
    await page.goto(analytics.path);
    const students = analytics.tile(/^Students$/);
    await expect(students.getByLabel('Loading Students')).toBeVisible();
    const loading = await students.boundingBox();
    release();
    await expect(students).toHaveText(/^\d+(\.\d)?[kMGTPE]?$/);
    expect((await students.boundingBox())?.height).toBe(loading?.height);
  });

  test('a failed session shows the error and every tile says it could not load', async ({ page, organisation }) => {
    await page.route('**/analytics/sessions/app/organisations/*', (route) => route.fulfill({ status: 403, json: { code: 'forbidden', message: 'No' } }));
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto();
    await expect(analytics.heading('Analytics')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: analyticsMessages.customFailed }).first()).toBeVisible();
    await expect(analytics.tile(/^Students$/)).toContainText(analyticsMessages.tileFailed);
  });
});

test.describe('Analytics readability and recovery', () => {
  test('the pie chart adds no tab stop: Tab goes from its card\'s buttons to the next chart', async ({ page, organisation }) => {
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto(CHECKED_BY_FIRST_TEST);
    await analytics.downloadButton('Sessions by OS').focus();
    await page.keyboard.press('Tab');
    await expect(analytics.tableButton('Sessions by sign-in provider')).toBeFocused();
  });

  test('Sessions by OS has a legend naming each operating system, with its table closed', async ({ page, organisation }) => {
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto(CHECKED_BY_FIRST_TEST);
    await expect(analytics.dataTable('Sessions by OS')).toBeHidden();
    for (const os of ['Windows', 'ChromeOS', 'macOS', 'iOS', 'Android']) {
      await expect(analytics.chart('Sessions by OS').getByText(os, { exact: true }).filter({ visible: true }), os).toHaveCount(1);
    }
  });

  test('over 18 months the time axis names the year, so no label stands for two dates', async ({ page, organisation }) => {
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto(CHECKED_BY_FIRST_TEST);
    for (const option of ['Weekly', 'Monthly'] as const) {
      await analytics.chooseTimeOption(option);
      const labels = await analytics.axisLabels('Sessions');
      expect(labels.length, option).toBeGreaterThan(3);
      for (const label of labels) expect(label, option).toMatch(/\b20\d\d$/);
    }
  });

  test('a failed tile and a failed chart offer Retry, which loads them', async ({ page, organisation }) => {
    let failing = true;
    const fail = async (route: Route) => {
      if (failing) await route.fulfill({ status: 500, json: { code: 'internal_error', message: 'Something went wrong' } });
      else await route.fallback();
    };
    await page.route('**/analytics/users/organisations/*/students/count?*', fail);
    await page.route('**/analytics/data/app/organisations/*/sessions/weekly.json*', fail);
    const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto();
    await expect(analytics.tile(/^Students$/)).toContainText(analyticsMessages.tileFailed);
    await expect(analytics.chart('Sessions').getByRole('alert')).toContainText(analyticsMessages.customFailed);
    failing = false;

    await analytics.tileRetry('Students').focus();
    await page.keyboard.press('Enter');
    await expect(analytics.tile(/^Students$/)).toHaveText(/^\d+(\.\d)?[kMGTPE]?$/);

    await analytics.chart('Sessions').getByRole('button', { name: /^Retry/ }).focus();
    await page.keyboard.press('Enter');
    await expect(analytics.chartImage('Sessions')).toBeVisible({ timeout: 30_000 });
    await expect(analytics.chart('Sessions').getByRole('alert')).toHaveCount(0);
  });
});

test.describe('Analytics of an organisation with no events', () => {
  test('says there is no data for every session chart, in every time option', async ({ page, organisations }) => {
    const empty = organisations.find((o) => o.name === EMPTY_SCHOOL);
    expect(empty, `${EMPTY_SCHOOL} is in the demo district`).toBeDefined();
    const analytics = await new AnalyticsPage(page, test.info(), empty!.id).goto();
    for (const option of ['Weekly', 'Monthly', 'Last 30 days'] as const) {
      await analytics.chooseTimeOption(option);
      for (const title of SESSION_CHARTS) {
        await expect(analytics.chart(title).getByText(analyticsMessages.noData), `${title}, ${option}`).toBeVisible();
        await expect(analytics.downloadButton(title)).toHaveCount(0);
      }
      await analytics.expectAccessible({ label: `no events, ${option}` });
    }
    // No usage yet, but the school has its students: the tile counts them from the roster and the members, not
    // from events (it said 0 here while the school had students).
    const session = await analyticsSession(page, empty!.id);
    const { count } = (await (await page.request.get(session.urls.studentsCount)).json()) as { count: number };
    await expect(analytics.tile(/^Students$/)).toHaveText(abbreviateNumber(count));
    await expect(analytics.tile(/^Session duration/)).toHaveText('0');
  });
});

test.describe('Analytics tenant boundary', () => {
  test("one organisation's signed URLs open nothing of another", async ({ page, organisation, organisations }) => {
    const other = organisations.find((o) => o.id !== organisation.id);
    expect(other).toBeDefined();
    const mine = await analyticsSession(page, organisation.id);
    for (const url of [mine.urls.data.sessions.weekly, mine.urls.studentsCount, mine.urls.booksCountPeriodic]) {
      const answer = await page.request.get(url.replaceAll(encodeURIComponent(organisation.id), encodeURIComponent(other!.id)));
      expect(answer.status()).toBe(403);
    }
    const tampered = mine.urls.data.sessions.weekly.replace(/signature=./, (m) => (m.endsWith('A') ? 'signature=B' : 'signature=A'));
    expect((await page.request.get(tampered)).status()).toBe(403);
  });
});
