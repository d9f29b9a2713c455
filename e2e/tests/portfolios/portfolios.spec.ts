import { portfolioDownloadSchema, portfolioMessages, PORTFOLIO_CSV_COLUMNS } from '@quire/core';
import { readFileSync } from 'node:fs';
import { expect, test } from '../../fixtures/auth.js';
import { PortfoliosPage } from '../../pages/portfolios-page.js';

const PORTFOLIO_SCHOOL = 'Oakwood Elementary School';
const NO_PORTFOLIOS_SCHOOL = 'Maple Grove High School';

test.describe('Portfolios', () => {
  test('downloads the student portfolio CSV of a school with portfolios on', async ({ page, organisations }) => {
    const school = organisations.find((o) => o.name === PORTFOLIO_SCHOOL)!;
    // The first export is built by the background job when the server starts; wait until it exists.
    await expect
      .poll(async () => (await page.request.get(`/rest/${school.id}/student-portfolios-export/latest`)).status(), { timeout: 60_000 })
      .toBe(200);
    const portfolios = await new PortfoliosPage(page, test.info(), school.id).goto();
    await expect(page.getByTestId('portfolio-generated')).toContainText('Generated');
    const link = portfolios.downloadLink();
    await expect(link).toHaveAttribute('href', /\/rest\/.+\/student-portfolios-export\/.+\/download\?.*signature=/);

    // Keyboard alone: tab to the link and press Enter.
    const download = page.waitForEvent('download');
    await link.focus();
    await expect(link).toBeFocused();
    await page.keyboard.press('Enter');
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^student-portfolios-oakwood-elementary-school-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync((await file.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8').slice(1);
    expect(text.split('\r\n')[0]).toBe(PORTFOLIO_CSV_COLUMNS.join(','));
    expect(text.split('\r\n').length).toBeGreaterThan(30);
  });

  test('renews the link before it expires instead of offering a dead one', async ({ page, organisations }) => {
    const school = organisations.find((o) => o.name === PORTFOLIO_SCHOOL)!;
    await page.clock.install();
    const portfolios = await new PortfoliosPage(page, test.info(), school.id).goto();
    const first = await portfolios.downloadLink().getAttribute('href');
    expect(first).toBeTruthy();
    const renewed = page.waitForResponse((r) => r.url().includes('/student-portfolios-export/') && !r.url().includes('/download') && r.status() === 200);
    // Past the link's refreshIn (15 minutes): the page asks for a new link on its own.
    await page.clock.fastForward('15:00');
    const { url } = portfolioDownloadSchema.parse(await (await renewed).json());
    // The page now offers the link of the new answer (the server's clock is real: within the same second the new
    // link can equal the first, so the test compares with the answer, not with the old link).
    await expect(portfolios.downloadLink()).toHaveAttribute('href', url);
    expect((await page.request.get(url)).status()).toBe(200);
  });

  test('says portfolios are not enabled (404) when the server says so', async ({ page, organisations }) => {
    // A school without portfolios: the navigation has no Portfolios item, the route sends the admin home,
    // and the export call answers 404 with the spec's message.
    const off = organisations.find((o) => o.name === NO_PORTFOLIOS_SCHOOL)!;
    const answer = await page.request.get(`/rest/${off.id}/student-portfolios-export/latest`);
    expect(answer.status()).toBe(404);
    expect(((await answer.json()) as { message: string }).message).toBe(portfolioMessages.notEnabled);
    await page.goto(`/${off.id}/portfolios`);
    await expect(page).not.toHaveURL(/\/portfolios$/);
    await expect(page.getByRole('link', { name: 'Portfolios' })).toHaveCount(0);

    // Portfolios switched off while the page was open: the page says so (the server's 404, replayed).
    const school = organisations.find((o) => o.name === PORTFOLIO_SCHOOL)!;
    await page.route('**/rest/*/student-portfolios-export/*', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ code: 'portfolios_not_enabled', message: portfolioMessages.notEnabled }) }));
    const portfolios = await new PortfoliosPage(page, test.info(), school.id).goto();
    await expect(portfolios.status()).toHaveText(portfolioMessages.notEnabled);
    await expect(portfolios.downloadLink()).toHaveCount(0);
  });

  test('before the first export (425) says the data will be ready soon, with the 24hrs note', async ({ page, organisations }) => {
    const school = organisations.find((o) => o.name === PORTFOLIO_SCHOOL)!;
    // The real 425 only lasts until the first build; the server tests cover it, here the answer is replayed.
    await page.route('**/rest/*/student-portfolios-export/*', (route) =>
      route.fulfill({ status: 425, contentType: 'application/json', body: JSON.stringify({ code: 'no_export_yet', message: portfolioMessages.noExportYet }) }));
    const portfolios = await new PortfoliosPage(page, test.info(), school.id).goto();
    await expect(portfolios.status()).toContainText(portfolioMessages.notReady);
    await expect(portfolios.status()).toContainText(portfolioMessages.notReadyNote);
    await expect(portfolios.downloadLink()).toHaveCount(0);
  });

  test("shows any other failure as a banner with the server's message", async ({ page, organisations }) => {
    const school = organisations.find((o) => o.name === PORTFOLIO_SCHOOL)!;
    await page.route('**/rest/*/student-portfolios-export/*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'unavailable', message: 'The export service is down for maintenance' }) }));
    const portfolios = await new PortfoliosPage(page, test.info(), school.id).goto();
    // A loading error names the server's reason and offers Retry.
    await expect(portfolios.banner()).toContainText('The export service is down for maintenance');
    await expect(portfolios.banner().getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  test('another organisation cannot read the export or its link', async ({ page, organisations, playwright }) => {
    const school = organisations.find((o) => o.name === PORTFOLIO_SCHOOL)!;
    const answer = await page.request.get(`/rest/${school.id}/student-portfolios-export/latest`);
    const { url } = (await answer.json()) as { url: string };
    // Without the session, the export call is refused; the signed link does not open another organisation's file.
    const anonymous = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: { cookies: [], origins: [] } });
    expect((await anonymous.get(`/rest/${school.id}/student-portfolios-export/latest`)).status()).toBe(401);
    const other = organisations.find((o) => o.name !== PORTFOLIO_SCHOOL)!;
    expect((await anonymous.get(url.replace(`/rest/${school.id}/`, `/rest/${other.id}/`))).status()).toBe(403);
    await anonymous.dispose();
  });
});
