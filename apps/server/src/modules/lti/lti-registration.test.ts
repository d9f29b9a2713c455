import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../../test/factories.js';
import { startRegistrationPlatform, type RegistrationPlatform } from '../../../test/lti-registration-platform.js';

/**
 * LTI Dynamic Registration with an independent platform (test/lti-registration-platform.ts): the admin's address, the
 * page the platform opens, the registration the tool sends, the platform stored for the admin's organisation and
 * audited; and the refusals — a forged, used or foreign address, an admin no more, a configuration that is not the
 * platform's or cannot be read, a registration the platform refuses — each a 4xx page, never a 5xx.
 */
let t: TestApp;
let platform: RegistrationPlatform;
let orgId: string;
let admin: SignedInHeaders;
let adminEmail: string;

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

beforeAll(async () => {
  t = await buildTestApp();
  platform = await startRegistrationPlatform();
  orgId = (await buildOrganisation(t.app.db)).id;
  adminEmail = unique('admin');
  await buildAdmin(t.app.db, { organisationId: orgId, email: adminEmail });
  admin = (await signIn(t.app, { email: adminEmail })).headers;
});
afterAll(async () => {
  await platform?.close();
  await t?.close();
});
beforeEach(() => platform.configure({ issuer: null, configurationStatus: 200, registrationStatus: 200, sendsDeployment: true }));

async function registrationAddress(headers: SignedInHeaders = admin, organisationId = orgId) {
  return t.app.inject({ method: 'POST', url: `/api/organisations/${organisationId}/lti/registrations`, headers });
}

/** The address as the platform opens it: with its configuration's URL and its registration token added. */
function opened(address: string, configurationUrl = platform.configurationUrl) {
  const url = new URL(address);
  url.searchParams.set('openid_configuration', configurationUrl);
  url.searchParams.set('registration_token', platform.registrationToken);
  return url;
}

async function newAddress(): Promise<URL> {
  const answer = await registrationAddress();
  expect(answer.statusCode, answer.body).toBe(200);
  return opened(answer.json<{ url: string }>().url);
}

/** The admin's confirmation, as the page's form posts it. */
function confirm(url: URL) {
  return t.app.inject({
    method: 'POST',
    url: '/lti/1.3/register',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
    payload: new URLSearchParams({
      t: url.searchParams.get('t') ?? '',
      openid_configuration: url.searchParams.get('openid_configuration') ?? '',
      registration_token: url.searchParams.get('registration_token') ?? '',
    }).toString(),
  });
}

function expectRefused(response: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, text: RegExp) {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toContain('text/html');
  expect(response.body).toContain('could not be registered');
  expect(response.body).toMatch(text);
}

async function platforms() {
  const answer = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/lti/platforms`, headers: admin });
  return answer.json<{ platforms: Array<{ id: string; name: string; issuer: string; clientId: string; deploymentIds: string[]; authEndpoint: string; tokenEndpoint: string; jwksUrl: string }> }>().platforms;
}

describe('a registration address', () => {
  it('is given to the organisation’s admins only, for 10 minutes', async () => {
    const answer = await registrationAddress();
    expect(answer.statusCode, answer.body).toBe(200);
    const { url, expiresAt } = answer.json<{ url: string; expiresAt: string }>();
    expect(url.startsWith(`${t.env.PUBLIC_URL}/lti/1.3/register?t=`)).toBe(true);
    const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);
    expect(answer.headers['cache-control']).toBe('no-store');

    const teacherEmail = unique('teacher');
    await buildTeacher(t.app.db, { organisationId: orgId, email: teacherEmail });
    const teacher = (await signIn(t.app, { email: teacherEmail })).headers;
    expect([403, 404]).toContain((await registrationAddress(teacher)).statusCode);
    const otherOrg = (await buildOrganisation(t.app.db)).id;
    expect([403, 404]).toContain((await registrationAddress(admin, otherOrg)).statusCode);
    expect((await t.app.inject({ method: 'POST', url: `/api/organisations/${orgId}/lti/registrations`, headers: { origin: admin.origin } })).statusCode).toBe(401);
  });
});

describe('the registration the platform opens', () => {
  it('shows the platform, registers the tool with the platform’s token, stores the platform, audits it, and closes', async () => {
    const url = await newAddress();
    const page = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Register Quire with your learning platform');
    expect(page.body).toContain(`Moodle (${new URL(platform.issuer).host})`);
    expect(page.body).toContain('<button type="submit">Register Quire</button>');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toContain('script-src');
    expect(platform.received()).toHaveLength(0);

    const done = await confirm(url);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('Quire is registered');
    expect(done.body).toContain("postMessage({ subject: 'org.imsglobal.lti.close' }, '*')");
    expect(String(done.headers['content-security-policy'])).toMatch(/script-src 'sha256-/);

    // What the platform received: the tool's client registration (Dynamic Registration §3.5.2), with its token.
    const [registration] = platform.received();
    expect(registration?.authorization).toBe(`Bearer ${platform.registrationToken}`);
    const base = t.env.PUBLIC_URL;
    expect(registration?.body).toMatchObject({
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: expect.arrayContaining(['implicit', 'client_credentials']),
      initiate_login_uri: `${base}/lti/1.3/login`,
      redirect_uris: [`${base}/lti/1.3/launch`],
      jwks_uri: `${base}/lti/1.3/jwks`,
      token_endpoint_auth_method: 'private_key_jwt',
      scope: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
      client_name: 'Quire',
      'https://purl.imsglobal.org/spec/lti-tool-configuration': {
        domain: new URL(base ?? '').host,
        target_link_uri: `${base}/lti/1.3/launch`,
        claims: expect.arrayContaining(['sub', 'name', 'email']),
        messages: expect.arrayContaining([
          expect.objectContaining({ type: 'LtiResourceLinkRequest', target_link_uri: `${base}/lti/1.3/launch` }),
          expect.objectContaining({ type: 'LtiDeepLinkingRequest', target_link_uri: `${base}/lti/1.3/launch` }),
        ]),
      },
    });

    const client = platform.lastClient();
    const stored = (await platforms()).find((p) => p.clientId === client?.clientId);
    expect(stored).toMatchObject({
      issuer: platform.issuer,
      deploymentIds: [client?.deploymentId],
      authEndpoint: `${platform.issuer}/auth`,
      tokenEndpoint: `${platform.issuer}/token`,
      jwksUrl: `${platform.issuer}/jwks`,
    });
    expect(done.body).toContain(client?.clientId ?? 'missing');
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'actor_email', 'target_ids']).where('organisation_id', '=', orgId).where('action', '=', 'lti.platform.add').execute();
    expect(audit.filter((e) => e.target_ids.includes(stored?.id ?? ''))).toEqual([expect.objectContaining({ actor_email: adminEmail })]);

    // The address works once: a second confirmation (a double click, a replay) registers nothing more.
    expectRefused(await confirm(url), 401, /expired or has been used/);
    expectRefused(await t.app.inject({ method: 'GET', url: `${url.pathname}?t=x.y&openid_configuration=${encodeURIComponent(platform.configurationUrl)}` }), 401, /expired or has been used/);
    expect(platform.received()).toHaveLength(1);
  });

  it('answers a double click’s two confirmations with the one registration: both say it is registered, the platform gets one', async () => {
    const url = await newAddress();
    const before = platform.received().length;
    const [first, second] = await Promise.all([confirm(url), confirm(url)]);
    for (const answer of [first, second]) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.body).toContain('Quire is registered');
    }
    expect(platform.received()).toHaveLength(before + 1);
    const client = platform.lastClient();
    expect((await platforms()).filter((p) => p.clientId === client?.clientId)).toHaveLength(1);
    // Once it is done, the address is used: a replay is refused as before.
    expectRefused(await confirm(url), 401, /expired or has been used/);
  });

  it('refuses a forged address, and one whose admin is no longer the organisation’s admin', async () => {
    const received = platform.received().length;
    const url = await newAddress();
    const [body, signature] = (url.searchParams.get('t') ?? '').split('.');
    const claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    const otherOrg = (await buildOrganisation(t.app.db)).id;
    const forged = new URL(url);
    forged.searchParams.set('t', `${Buffer.from(JSON.stringify({ ...claims, o: otherOrg })).toString('base64url')}.${signature}`);
    expectRefused(await t.app.inject({ method: 'GET', url: `${forged.pathname}${forged.search}` }), 401, /expired or has been used/);
    expectRefused(await confirm(forged), 401, /expired or has been used/);
    const expired = new URL(url);
    expired.searchParams.set('t', `${Buffer.from(JSON.stringify({ ...claims, e: 1 })).toString('base64url')}.${signature}`);
    expectRefused(await confirm(expired), 401, /expired or has been used/);

    const formerEmail = unique('former');
    await buildAdmin(t.app.db, { organisationId: orgId, email: formerEmail });
    const former = (await signIn(t.app, { email: formerEmail })).headers;
    const address = opened((await registrationAddress(former)).json<{ url: string }>().url);
    await t.app.db.deleteFrom('admins').where('email', '=', formerEmail).execute();
    expectRefused(await confirm(address), 401, /expired or has been used/);
    expect(platform.received()).toHaveLength(received);
  });

  it('refuses a configuration that is not the platform’s or cannot be read, and a registration the platform refuses; the address still works after', async () => {
    const url = await newAddress();
    const before = (await platforms()).length;
    // The configuration names an issuer on another origin than its own address.
    platform.configure({ issuer: 'https://canvas.instructure.com' });
    expectRefused(await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` }), 400, /configuration could not be read/);
    expectRefused(await confirm(url), 400, /configuration could not be read/);
    platform.configure({ issuer: null, configurationStatus: 404 });
    expectRefused(await confirm(url), 400, /configuration could not be read/);
    platform.configure({ configurationStatus: 200 });
    // Not https, and not this computer's own address.
    expectRefused(await confirm(opened(url.toString(), 'http://lms.example.org/.well-known/openid-configuration')), 400, /configuration could not be read/);
    expectRefused(await confirm(opened(url.toString(), 'not a url')), 400, /configuration could not be read/);
    // Nobody answers there.
    expectRefused(await confirm(opened(url.toString(), 'http://127.0.0.1:9/.well-known/openid-configuration')), 400, /configuration could not be read/);
    // The platform refuses the registration (here: a wrong registration token).
    platform.configure({ registrationStatus: 400 });
    expectRefused(await confirm(url), 400, /did not accept the tool’s registration/);
    platform.configure({ registrationStatus: 200 });
    const wrongToken = new URL(url);
    wrongToken.searchParams.set('registration_token', 'not-the-platform-token');
    expectRefused(await confirm(wrongToken), 400, /did not accept/);
    // Nothing stored by any of them; the address, refused before the platform registered anything, still works.
    expect((await platforms()).length).toBe(before);
    expect((await confirm(url)).statusCode).toBe(200);
    expect((await platforms()).length).toBe(before + 1);

    // A platform that answers with no deployment id: said so, nothing stored; that address is spent (the platform
    // made a client for it).
    platform.configure({ sendsDeployment: false });
    const another = await newAddress();
    expectRefused(await confirm(another), 400, /sent no deployment id/);
    expect((await platforms()).length).toBe(before + 1);
    platform.configure({ sendsDeployment: true });
    expectRefused(await confirm(another), 401, /expired or has been used/);
  });

  it('accepts only http on this computer outside production', async () => {
    const prod = await buildTestApp({ NODE_ENV: 'production', LTI_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    try {
      const email = unique('prod-admin');
      const org = (await buildOrganisation(prod.app.db)).id;
      await buildAdmin(prod.app.db, { organisationId: org, email });
      const headers = (await signIn(prod.app, { email })).headers;
      const answer = await prod.app.inject({ method: 'POST', url: `/api/organisations/${org}/lti/registrations`, headers });
      expect(answer.statusCode, answer.body).toBe(200);
      const url = opened(answer.json<{ url: string }>().url);
      const page = await prod.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expectRefused(page, 400, /configuration could not be read/);
    } finally {
      await prod.close();
    }
  });
});
