import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusalPage } from '../../../test/lti.helpers.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation } from '../../../test/factories.js';
import { launchParams, signLaunch, type Consumer } from '../../../test/lti-consumer.js';

/** What an independent LMS-side test found at the edges of the LTI 1.1 launch: each a friendly page, never JSON. */
let t: TestApp;
let launchUrl: string;
let consumer: Consumer;
const RETURN_URL = 'https://canvas.example.edu/courses/7/external_content/success';

beforeAll(async () => {
  t = await buildTestApp({ APP_URL: 'https://app.quire.test' });
  launchUrl = `${t.env.PUBLIC_URL}/lti/launch`;
  const org = await buildOrganisation(t.app.db);
  const email = `admin-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
  await buildAdmin(t.app.db, { organisationId: org.id, email });
  const { headers } = await signIn(t.app, { email });
  const response = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers,
    payload: { query: 'mutation g($orgId: ID!) { generateLTICredentials(orgId: $orgId) { consumerKey consumerSecret } }', variables: { orgId: org.id } },
  });
  const creds = response.json().data.generateLTICredentials as { consumerKey: string; consumerSecret: string };
  consumer = { key: creds.consumerKey, secret: creds.consumerSecret };
});
afterAll(() => t?.close());

const post = (url: string, body: string, contentType = 'application/x-www-form-urlencoded') =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType, origin: 'https://canvas.example.edu' }, payload: body });

describe('repeated OAuth parameters (RFC 5849 §3.1)', () => {
  for (const name of ['oauth_nonce', 'oauth_consumer_key', 'oauth_signature', 'oauth_timestamp']) {
    it(`refuses a launch with ${name} twice`, async () => {
      const { form } = signLaunch(launchUrl, consumer, launchParams());
      const body = `${new URLSearchParams(form).toString()}&${name}=${encodeURIComponent(form[name] ?? 'x')}`;
      expectRefusalPage(await post('/lti/launch', body), 400, /more than once/);
    });
  }

  it('refuses an oauth_ parameter repeated in the query string', async () => {
    const { form } = signLaunch(launchUrl, consumer, launchParams());
    const response = await post(`/lti/launch?oauth_nonce=${encodeURIComponent(form.oauth_nonce ?? '')}`, new URLSearchParams(form).toString());
    expectRefusalPage(response, 400, /more than once/);
  });
});

describe('many parameters', () => {
  it('accepts a correctly signed launch with 1,500 custom parameters', async () => {
    const custom = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`custom_field_${i}`, `value ${i}`]));
    const { form } = signLaunch(launchUrl, consumer, launchParams(custom));
    const response = await post('/lti/launch', new URLSearchParams(form).toString());
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^https:\/\/app\.quire\.test\/lti\?token=/);
  });

  it('refuses more parameters than a launch carries with a true message, not as unsigned', async () => {
    const custom = Object.fromEntries(Array.from({ length: 2100 }, (_, i) => [`c${i}`, '']));
    const { form } = signLaunch(launchUrl, consumer, launchParams(custom));
    expectRefusalPage(await post('/lti/launch', new URLSearchParams(form).toString()), 400, /more than 2,000 parameters/);
  });
});

describe('bodies that are not a launch form', () => {
  it('answers an oversized body with the page', async () => {
    const { form } = signLaunch(launchUrl, consumer, launchParams({ custom_big: 'x'.repeat(300 * 1024) }));
    expectRefusalPage(await post('/lti/launch', new URLSearchParams(form).toString()), 413, /larger than 256 KiB/);
  });

  it('answers a multipart body with the page', async () => {
    const boundary = '----quire';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="lti_message_type"\r\n\r\nbasic-lti-launch-request\r\n--${boundary}--\r\n`;
    expectRefusalPage(await post('/lti/launch', body, `multipart/form-data; boundary=${boundary}`), 415, /application\/x-www-form-urlencoded/);
  });

  it('answers a JSON body with the page', async () => {
    expectRefusalPage(await post('/lti/launch', '{"a":1}', 'application/json'), 415, /application\/x-www-form-urlencoded/);
  });
});

describe('a launch sent to another spelling of the launch URL', () => {
  for (const path of ['/lti/launch/', '/LTI/Launch', '/lti/launch//']) {
    it(`${path}: unsigned, the page naming the launch URL`, async () => {
      const response = await post(path, new URLSearchParams(launchParams({ launch_presentation_return_url: RETURN_URL })).toString());
      expectRefusalPage(response, 404, /\/lti\/launch/);
    });
  }

  it('signed for that URL: back to the platform with lti_errormsg naming the launch URL', async () => {
    const { form } = signLaunch(`${t.env.PUBLIC_URL}/lti/launch/`, consumer, launchParams({ launch_presentation_return_url: RETURN_URL }));
    const response = await post('/lti/launch/', new URLSearchParams(form).toString());
    expect(response.statusCode).toBe(302);
    const back = new URL(response.headers.location ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(RETURN_URL);
    expect(back.searchParams.get('lti_errormsg')).toContain(launchUrl);
  });
});

describe('admins and launches (docs/lti.md "Who a launch signs in")', () => {
  it('a launch naming an admin’s address gets its own account; a launch account later listed as an admin is refused with 403', async () => {
    const org = await t.app.db.selectFrom('lti_credentials').select('organisation_id').where('consumer_key', '=', consumer.key).executeTakeFirstOrThrow();
    const admin = await t.app.db.selectFrom('admins').select(['email', 'user_id']).where('organisation_id', '=', org.organisation_id).executeTakeFirstOrThrow();
    const userId = `platform-admin-${Math.random().toString(36).slice(2, 8)}`;
    const first = signLaunch(launchUrl, consumer, launchParams({ user_id: userId, lis_person_contact_email_primary: admin.email }));
    const landed = await post('/lti/launch', new URLSearchParams(first.form).toString());
    expect(landed.statusCode).toBe(302);
    const link = await t.app.db.selectFrom('lti_users').select('user_id').where('lti_user_id', '=', userId).executeTakeFirstOrThrow();
    expect(link.user_id).not.toBe(admin.user_id);

    await t.app.db.insertInto('admins').values({ organisation_id: org.organisation_id, email: `listed-${userId}@school.example.org`, user_id: link.user_id }).execute();
    const again = signLaunch(launchUrl, consumer, launchParams({ user_id: userId }));
    expectRefusalPage(await post('/lti/launch', new URLSearchParams(again.form).toString()), 403, /manages an organisation/);
  });
});
