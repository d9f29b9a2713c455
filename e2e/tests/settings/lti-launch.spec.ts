import type { LtiCredentials } from '@quire/core';
import { expect, test } from '../../fixtures/auth.js';
import { LmsPage } from '../../pages/settings-pages.js';
import { signedLaunchForm } from '../../support/lti-consumer.js';
import { changeableOrganisation, graphql } from '../teachers/teachers-api.js';
import { launchOrganisation } from './settings-api.js';
import { readConsoleConfig } from '../../support/contracts.js';

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

test('a learning platform posts a signed launch from the browser and the user lands in the app, signed in', async ({ page, browser, organisation, organisations }) => {
  const base = process.env.E2E_BASE_URL ?? '';
  // Not the organisation lms.spec.ts generates and revokes in: the two may run at once.
  const org = launchOrganisation(organisations, organisation, await changeableOrganisation(page, organisations, organisation));
  await graphql(page, 'mutation revokeLTICredentials($orgId: ID!) { revokeLTICredentials(orgId: $orgId) { consumerKey } }', { orgId: org.id });
  const { generateLTICredentials: creds } = await graphql<{ generateLTICredentials: Pick<LtiCredentials, 'consumerKey' | 'consumerSecret' | 'launchUrl'> }>(
    page,
    'mutation generateLTICredentials($orgId: ID!) { generateLTICredentials(orgId: $orgId) { consumerKey consumerSecret launchUrl } }',
    { orgId: org.id },
  );
  const { appUrl } = await readConsoleConfig(page);
  const email = `lti-student-${Date.now().toString(36)}@students.example.edu`;
  const fields = signedLaunchForm(creds.launchUrl, { key: creds.consumerKey ?? '', secret: creds.consumerSecret ?? '' }, {
    lti_message_type: 'basic-lti-launch-request',
    lti_version: 'LTI-1p0',
    resource_link_id: 'e2e-link',
    user_id: `e2e-${Date.now()}`,
    roles: 'urn:lti:role:ims/lis/Learner',
    lis_person_name_full: 'Eve Student',
    lis_person_contact_email_primary: email,
  });

  // A student's own browser: no console session.
  const student = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const platform = await student.newPage();
    // The product's app: the e2e run's stand-in server (support/auth-peers.ts) answers with its page.
    const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${escapeAttr(k)}" value="${escapeAttr(v)}">`).join('');
    await platform.setContent(`<!doctype html><html lang="en"><title>Course</title><main><form method="post" action="${escapeAttr(creds.launchUrl)}">${inputs}<button>Open the book tool</button></form></main></html>`);
    await platform.getByRole('button', { name: 'Open the book tool' }).click();
    await platform.waitForURL((url) => url.href.startsWith(`${appUrl.replace(/\/$/, '')}/lti`));
    await expect(platform.getByRole('heading', { name: 'Product app' })).toBeVisible();
    const landed = new URL(platform.url());
    expect(landed.searchParams.get('organisationId')).toBe(org.id);
    const token = landed.searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThan(20);

    // The app, on its own origin (another port than the console's), signs the user in with the token, once, with
    // fetch and credentials as the product's app does, then reads the user's apps and role with the session.
    const exchange = () =>
      platform.evaluate(
        async ({ base, token, organisationId }) => {
          const signIn = await fetch(`${base}/identity/one-time-token/verify`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token }),
          });
          const body = (await signIn.json()) as { user?: { id: string; email: string; name: string; emailVerified: boolean } };
          if (!signIn.ok || !body.user) return { status: signIn.status, user: body.user, apps: null };
          const apps = await fetch(`${base}/api/organisations/${organisationId}/users/${body.user.id}/apps`, { credentials: 'include' });
          return { status: signIn.status, user: body.user, apps: { status: apps.status, body: (await apps.json()) as { kind?: string } } };
        },
        { base, token, organisationId: org.id },
      );
    // APP_URL's origin (127.0.0.1) answers the exchange; a page on the console's site (the product's other origin,
    // localhost) also keeps the SameSite=Lax session cookie for the next call.
    expect(new URL(platform.url()).origin).toBe(new URL(appUrl).origin);
    const onSite = new URL(appUrl);
    onSite.hostname = 'localhost';
    await platform.goto(`${onSite.origin}/app`);
    const signedIn = await exchange();
    expect(signedIn.status).toBe(200);
    // The platform's own account for this user, not one named by the address it sent (docs/lti.md).
    expect(signedIn.user).toMatchObject({ name: 'Eve Student', emailVerified: false });
    expect(signedIn.user?.email).toMatch(/@lti\.invalid$/);
    expect(signedIn.user?.email).not.toBe(email);
    expect(signedIn.apps).toMatchObject({ status: 200, body: { kind: 'student' } });
    const again = await exchange();
    expect(again.status).toBe(400);

    // Sending the same launch again is a replay: refused with the friendly page, not a 5xx.
    await platform.setContent(`<!doctype html><html lang="en"><title>Course</title><main><form method="post" action="${escapeAttr(creds.launchUrl)}">${inputs}<button>Open again</button></form></main></html>`);
    await platform.getByRole('button', { name: 'Open again' }).click();
    await expect(platform.getByRole('heading', { name: /could not be opened/ })).toBeVisible();
    await expect(platform.getByRole('alert')).toContainText('already been used');
  } finally {
    await student.close();
    await graphql(page, 'mutation revokeLTICredentials($orgId: ID!) { revokeLTICredentials(orgId: $orgId) { consumerKey } }', { orgId: org.id });
  }
  // The admin's LMS page says how many accounts the integration has made (the launch above made one).
  const lms = await new LmsPage(page, test.info(), org.id).goto();
  await expect(lms.page.getByText(/^\d[\d,]* (people have accounts|person has an account) made by launches from your learning platform\.$/)).toBeVisible();
});
