import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from '@playwright/test';
import pg from 'pg';
import { PORTFOLIO_CSV_COLUMNS, portfolioDownloadSchema, type LtiCredentials } from '@quire/core';
import { copyOf, expect, test } from '../../fixtures/proxy.js';
import { AnalyticsPage } from '../../pages/analytics-page.js';
import { EmailSignInPage, OrganisationPickerPage } from '../../pages/auth/sign-in-pages.js';
import { TeachersPage } from '../../pages/teachers-page.js';
import { demoAdmin } from '../../support/env.js';
import { haproxyInstalled } from '../../support/proxy-cluster.js';
import { signedLaunchForm } from '../../support/lti-consumer.js';
import { mailCount, waitForMail } from '../../support/mailbox.js';
import { changeSettings, readSettings } from '../settings/settings-api.js';
import { changeableOrganisation, graphql, importByApi, revokeByApi, uniqueEmails } from '../teachers/teachers-api.js';

/**
 * The flows that matter, through HAProxy to three copies of the server on one PostgreSQL database, round robin with no
 * session affinity (fixtures/proxy.ts, docs/scale-out.md). Each test checks which copies answered (the test set-up's
 * X-Quire-Copy header), so it proves the requests really spread: whatever one copy did, another saw.
 */
test.describe.configure({ timeout: 120_000 });
// Like the other tests that need a Debian package, skipped without it except under CI (which installs it: .ci/run).
test.skip(!haproxyInstalled() && !process.env.CI, 'needs HAProxy: apt-get install haproxy');

const COPIES = ['copy1', 'copy2', 'copy3'];
const PORTFOLIO_SCHOOL = 'Oakwood Elementary School';

/** Every answer from the console's origin the page received, by copy. */
function recordCopies(page: { on(event: 'response', listener: (response: Response) => void): unknown }, origin: string): Set<string> {
  const seen = new Set<string>();
  page.on('response', (response) => {
    if (response.url().startsWith(origin) && response.headers()['x-quire-copy']) seen.add(copyOf(response));
  });
  return seen;
}

test('an admin signs in through the screens, and every copy knows the session', async ({ browser, cluster }) => {
  const context = await browser.newContext({ baseURL: cluster.url, storageState: { cookies: [], origins: [] } });
  try {
    const page = await context.newPage();
    const seen = recordCopies(page, cluster.url);
    const emailPage = new EmailSignInPage(page);
    await page.goto(emailPage.path);
    await emailPage.waitUntilReady();
    await emailPage.signIn(demoAdmin.email, demoAdmin.password);
    const picker = new OrganisationPickerPage(page);
    await picker.waitUntilReady();
    await picker.select().click();
    await page.getByRole('option').first().click();
    await picker.submitButton().click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    // The sign-in's own requests were already shared out.
    expect(seen.size).toBeGreaterThan(1);

    // The session made by one copy opens the console on each of them.
    const answered = new Set<string>();
    for (let i = 0; i < COPIES.length * 2; i += 1) {
      const answer = await page.request.get('/identity/get-session');
      expect(answer.status()).toBe(200);
      expect(((await answer.json()) as { user?: { email?: string } }).user?.email).toBe(demoAdmin.email);
      answered.add(copyOf(answer));
    }
    expect([...answered].sort()).toEqual(COPIES);
  } finally {
    await context.close();
  }
});

test('Teachers: a bulk welcome e-mail from the screen is sent once to each teacher, not once per copy', async ({ page, organisation, organisations }) => {
  const org = await changeableOrganisation(page, organisations, organisation);
  const emails = uniqueEmails('proxy', 3);
  const prefix = emails[0]!.slice(0, emails[0]!.lastIndexOf('-') + 1);
  const imported = await importByApi(page, org.id, emails);
  try {
    const seen = recordCopies(page, process.env.E2E_BASE_URL ?? '');
    const teachers = await new TeachersPage(page, test.info(), org.id).goto();
    await teachers.search(prefix);
    await expect(teachers.rows()).toHaveCount(3);
    for (const email of emails) await teachers.selectRow(email).check();
    const review = await teachers.applyBulk('Send welcome email', 'Review message details');
    await review!.getByRole('button', { name: 'Next' }).click();
    const confirm = teachers.dialog('Confirm recipients and send');
    await expect(confirm.getByText('This email will be sent to 3 teachers:')).toBeVisible();
    await confirm.getByRole('button', { name: 'Send' }).click();
    await expect(teachers.dialog('Your message has been sent').getByText('Sent to 3 teachers.')).toBeVisible();
    await teachers.dialog('Your message has been sent').getByRole('button', { name: 'Done' }).click();
    expect(seen.size).toBeGreaterThan(1);

    // The mail jobs are queued in the shared database; every copy runs a worker, and each mail goes out once.
    for (const email of emails) await waitForMail(email);
    await sleep(3000);
    for (const email of emails) expect(mailCount(email), email).toBe(1);
  } finally {
    await revokeByApi(page, org.id, imported.map((m) => m.id));
  }
});

test('a settings change made through one copy is what every copy answers at once', async ({ page, organisation, organisations }) => {
  const org = await changeableOrganisation(page, organisations, organisation);
  await changeSettings(page, org.id, { apps: { giphy: -1 } });
  try {
    const answered = new Set<string>();
    for (let i = 0; i < COPIES.length; i += 1) {
      const answer = await page.request.get(`/api/organisations/${encodeURIComponent(org.id)}/settings`);
      expect(answer.status()).toBe(200);
      expect(((await answer.json()) as { apps: Record<string, number> }).apps.giphy).toBe(-1);
      answered.add(copyOf(answer));
    }
    expect([...answered].sort()).toEqual(COPIES);
  } finally {
    await changeSettings(page, org.id, { apps: { giphy: null } });
  }
  expect((await readSettings(page, org.id)).apps.giphy).toBeUndefined();
});

test('an LTI launch signed with credentials made on one copy signs the user in, and the token is taken once on another', async ({ page, organisation, organisations, playwright, cluster }) => {
  const org = await changeableOrganisation(page, organisations, organisation);
  await graphql(page, 'mutation revokeLTICredentials($orgId: ID!) { revokeLTICredentials(orgId: $orgId) { consumerKey } }', { orgId: org.id });
  const { generateLTICredentials: creds } = await graphql<{ generateLTICredentials: Pick<LtiCredentials, 'consumerKey' | 'consumerSecret' | 'launchUrl'> }>(
    page,
    'mutation generateLTICredentials($orgId: ID!) { generateLTICredentials(orgId: $orgId) { consumerKey consumerSecret launchUrl } }',
    { orgId: org.id },
  );
  // The platform and the product's app have no console session (a sign-in ends the session it is sent with: the
  // worker's admin session must not go with them).
  const platform = await playwright.request.newContext({ baseURL: cluster.url, storageState: { cookies: [], origins: [] } });
  const copies = new Set<string>();
  // Each copy decrypts the stored secret (the same LTI_ENCRYPTION_KEY everywhere) and accepts the signature once.
  const launches: string[] = [];
  for (let i = 0; i < COPIES.length; i += 1) {
    const fields = signedLaunchForm(creds.launchUrl, { key: creds.consumerKey ?? '', secret: creds.consumerSecret ?? '' }, {
      lti_message_type: 'basic-lti-launch-request',
      lti_version: 'LTI-1p0',
      resource_link_id: 'proxy-link',
      user_id: `proxy-${Date.now()}-${i}`,
      roles: 'urn:lti:role:ims/lis/Learner',
      lis_person_name_full: 'Pat Student',
    });
    const launch = await platform.post(creds.launchUrl, { form: fields, maxRedirects: 0 });
    expect(launch.status(), await launch.text()).toBeGreaterThanOrEqual(300);
    expect(launch.status()).toBeLessThan(400);
    copies.add(copyOf(launch));
    launches.push(new URL(launch.headers().location ?? '', creds.launchUrl).searchParams.get('token') ?? '');
  }
  expect([...copies].sort()).toEqual(COPIES);

  // The app exchanges the token for a session: on the next copy round, once and only once.
  const appOrigin = new URL(process.env.E2E_APP_URL ?? 'http://127.0.0.1').origin;
  const token = launches[0]!;
  expect(token.length).toBeGreaterThan(20);
  const verify = () => platform.post('/identity/one-time-token/verify', { data: { token }, headers: { origin: appOrigin } });
  try {
    const first = await verify();
    expect(first.status(), await first.text()).toBe(200);
    const again = await verify();
    expect(again.status()).toBe(400);
    expect(copyOf(again)).not.toBe(copyOf(first));
  } finally {
    await platform.dispose();
  }
});

test('Analytics: the signed chart and tile links made by one copy are served by the others', async ({ page, organisation }) => {
  const signed: Response[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).searchParams.has('signature')) signed.push(response);
  });
  const session = page.waitForResponse((r) => r.url().includes('/analytics/sessions/'));
  const analytics = await new AnalyticsPage(page, test.info(), organisation.id).goto();
  await expect(analytics.tile(/^Students$/)).toHaveText(/^\d/);
  await expect(analytics.chartImage('Sessions')).toBeVisible();
  const madeBy = copyOf(await session);
  expect(signed.length).toBeGreaterThan(3);
  for (const response of signed) expect(response.status(), response.url()).toBeLessThan(400);
  const servedBy = new Set(signed.map(copyOf));
  expect(servedBy.size).toBeGreaterThan(1);
  expect([...servedBy].some((copy) => copy !== madeBy)).toBe(true);
});

test('a portfolio export built by a job once, though every copy asked for it, is downloaded through another copy', async ({ page, organisations, cluster }) => {
  const school = organisations.find((o) => o.name === PORTFOLIO_SCHOOL)!;
  await expect.poll(async () => (await page.request.get(`/rest/${school.id}/student-portfolios-export/latest`)).status(), { timeout: 60_000 }).toBe(200);
  const latest = await page.request.get(`/rest/${school.id}/student-portfolios-export/latest`);
  const { url } = portfolioDownloadSchema.parse(await latest.json());
  // Round robin: one of the next requests reaches another copy than the one that signed the link.
  let download = await page.request.get(url);
  for (let i = 0; i < COPIES.length && copyOf(download) === copyOf(latest); i += 1) download = await page.request.get(url);
  expect(copyOf(download)).not.toBe(copyOf(latest));
  expect(download.status()).toBe(200);
  expect((await download.body()).toString('utf8').slice(1).split('\r\n')[0]).toBe(PORTFOLIO_CSV_COLUMNS.join(','));

  // Each copy queued the build at start; the queue's singleton key let one run.
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) from portfolio_exports where organisation_id = $1', [school.id]);
    expect(Number(rows[0]?.count)).toBe(1);
  } finally {
    await client.end();
  }
});

test('sign-in limits are counted across copies: the eleventh try in a minute is refused, whichever copy gets it', async ({ request }) => {
  // A client address of this test alone (the proxy passes X-Forwarded-For on; the copies believe it from loopback).
  const from = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
  const email = uniqueEmails('limit', 1)[0]!;
  const statuses: number[] = [];
  const copies = new Set<string>();
  for (let i = 0; i < 11; i += 1) {
    const answer = await request.post('/auth/email', {
      form: { email, password: `wrong-${i}` },
      headers: { origin: process.env.E2E_BASE_URL ?? '', 'x-forwarded-for': from },
    });
    statuses.push(answer.status());
    copies.add(copyOf(answer));
  }
  expect([...copies].sort()).toEqual(COPIES);
  expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
  expect(statuses[10]).toBe(429);
});
