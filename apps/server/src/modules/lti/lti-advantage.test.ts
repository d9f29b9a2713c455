import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import { expectRefusalPage } from '../../../test/lti.helpers.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation } from '../../../test/factories.js';
import { CLAIM, ROLE, startPlatform, type PlatformSimulator } from '../../../test/lti-platform.js';
import { ensureToolKey, publicJwks } from './lti-tool-keys.js';
import { isAcceptedPlatformUrl } from './lti-platforms.service.js';

/**
 * LTI 1.3 launches driven by an independent platform simulator (test/lti-platform.ts: its own keys, tokens signed
 * with jose), and the 1EdTech certification's invalid launches: each a 4xx page, never a 5xx.
 */
const APP_URL = 'https://app.quire.test';
let t: TestApp;
let platform: PlatformSimulator;
let orgId: string;
let admin: SignedInHeaders;
let adminEmail: string;
let launchUrl: string;

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

function registration(p: PlatformSimulator, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Simulated LMS',
    issuer: p.issuer,
    clientId: p.clientId,
    deploymentIds: [p.deploymentId, 'another-deployment'],
    authEndpoint: p.authEndpoint,
    tokenEndpoint: p.tokenEndpoint,
    jwksUrl: p.jwksUrl,
    ...overrides,
  };
}

beforeAll(async () => {
  t = await buildTestApp({ APP_URL });
  launchUrl = `${t.env.PUBLIC_URL}/lti/1.3/launch`;
  platform = await startPlatform({ toolLaunchUrl: launchUrl });
  orgId = (await buildOrganisation(t.app.db)).id;
  const email = unique('admin');
  adminEmail = email;
  await buildAdmin(t.app.db, { organisationId: orgId, email });
  admin = (await signIn(t.app, { email })).headers;
  const created = await t.app.inject({ method: 'POST', url: `/api/organisations/${orgId}/lti/platforms`, headers: admin, payload: registration(platform) });
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(async () => {
  await platform?.close();
  await t?.close();
});

/** The platform starts the login; the tool answers with the redirect to the platform's authorisation endpoint. */
async function login(p: PlatformSimulator = platform, method: 'GET' | 'POST' = 'GET') {
  const params = new URLSearchParams({ iss: p.issuer, login_hint: 'hint-42', target_link_uri: launchUrl, lti_message_hint: 'message-hint', client_id: p.clientId });
  const response =
    method === 'GET'
      ? await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${params}` })
      : await t.app.inject({ method: 'POST', url: '/lti/1.3/login', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.issuer }, payload: params.toString() });
  expect(response.statusCode, response.body).toBe(302);
  const redirect = new URL(response.headers.location ?? '');
  expect(`${redirect.origin}${redirect.pathname}`).toBe(p.authEndpoint);
  expect(Object.fromEntries(redirect.searchParams)).toMatchObject({
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: p.clientId,
    redirect_uri: launchUrl,
    login_hint: 'hint-42',
    lti_message_hint: 'message-hint',
  });
  const cookie = sessionCookieFromState(response.headers['set-cookie']);
  return { state: redirect.searchParams.get('state') ?? '', nonce: redirect.searchParams.get('nonce') ?? '', cookie };
}

function sessionCookieFromState(setCookie: string | string[] | undefined): string {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = lines.find((l) => l.startsWith('lti_state_'));
  expect(line).toBeDefined();
  expect(line).toContain('HttpOnly');
  expect(line).toContain('Path=/lti/1.3');
  return line?.split(';')[0] ?? '';
}

async function launch(form: Record<string, string>, cookie: string) {
  return t.app.inject({
    method: 'POST',
    url: '/lti/1.3/launch',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: platform.issuer, cookie },
    payload: new URLSearchParams(form).toString(),
  });
}

async function launchWith(input: Parameters<PlatformSimulator['idToken']>[0] extends infer I ? Omit<I & object, 'nonce'> : never = {}) {
  const { state, nonce, cookie } = await login();
  const idToken = await platform.idToken({ nonce, ...input });
  return launch({ id_token: idToken, state }, cookie);
}

describe('an LTI 1.3 launch from a registered platform', () => {
  it('signs a teacher in: login (GET), id_token, the product with a single-use token', async () => {
    const { state, nonce, cookie } = await login();
    const sub = `teacher-${Math.random().toString(36).slice(2, 8)}`;
    const response = await launch({ id_token: await platform.idToken({ nonce, overrides: { sub } }), state }, cookie);
    expect(response.statusCode, response.body).toBe(302);
    const landed = new URL(response.headers.location ?? '');
    expect(`${landed.origin}${landed.pathname}`).toBe(`${APP_URL}/lti`);
    expect(landed.searchParams.get('organisationId')).toBe(orgId);
    const token = landed.searchParams.get('token') ?? '';
    const signedIn = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: APP_URL }, payload: { token } });
    expect(signedIn.statusCode).toBe(200);
    const user = signedIn.json().user as { id: string; email: string; name: string; emailVerified: boolean };
    expect(user).toMatchObject({ name: 'Ada Teacher', emailVerified: false });
    expect(user.email).toMatch(/@lti\.invalid$/);
    const member = await t.app.db.selectFrom('members').selectAll().where('organisation_id', '=', orgId).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(member).toMatchObject({ is_student: false, role: 600 });
    const link = await t.app.db.selectFrom('lti_users').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(link.contact_email).toBe('ada@school.example.org');

    // The same platform user launching again reaches the same account.
    const again = await launchWith({ overrides: { sub } });
    const token2 = new URL(again.headers.location ?? '').searchParams.get('token') ?? '';
    const second = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: APP_URL }, payload: { token: token2 } });
    expect(second.json().user.id).toBe(user.id);
  });

  it('signs a student in (POST login; Learner and an institution Student role)', async () => {
    const { state, nonce, cookie } = await login(platform, 'POST');
    const idToken = await platform.idToken({ nonce, overrides: { name: 'Eve Student', [`${CLAIM}roles`]: [ROLE.learner, ROLE.institutionStudent] } });
    const response = await launch({ id_token: idToken, state }, cookie);
    expect(response.statusCode, response.body).toBe(302);
    const token = new URL(response.headers.location ?? '').searchParams.get('token') ?? '';
    const signedIn = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: APP_URL }, payload: { token } });
    const member = await t.app.db.selectFrom('members').select('is_student').where('user_id', '=', signedIn.json().user.id).executeTakeFirstOrThrow();
    expect(member.is_student).toBe(true);
  });

  it('reads roles from the LIS vocabulary: institution and system roles, short names', async () => {
    for (const [roles, student] of [
      [[ROLE.institutionFaculty], false],
      [[ROLE.systemAdministrator], false],
      [['Instructor'], false],
      [['http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant'], false],
      [[], true],
      [['http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor'], true],
    ] as const) {
      const response = await launchWith({ overrides: { [`${CLAIM}roles`]: roles } });
      expect(response.statusCode, JSON.stringify(roles)).toBe(302);
      const token = new URL(response.headers.location ?? '').searchParams.get('token') ?? '';
      const signedIn = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: APP_URL }, payload: { token } });
      const member = await t.app.db.selectFrom('members').select('is_student').where('user_id', '=', signedIn.json().user.id).executeTakeFirstOrThrow();
      expect(member.is_student, JSON.stringify(roles)).toBe(student);
    }
  });

  it('accepts a token with several audiences when azp names the tool', async () => {
    const response = await launchWith({ overrides: { aud: [platform.clientId, 'someone-else'], azp: platform.clientId } });
    expect(response.statusCode, response.body).toBe(302);
  });
});

describe('invalid LTI 1.3 launches (the 1EdTech certification’s cases): a 4xx page, never a 5xx', () => {
  it('bad signature', async () => {
    expectRefusalPage(await launchWith({ key: platform.otherKey }), 401, /signature does not verify/);
  });

  it('unknown kid (the JWKS is read again, then refused)', async () => {
    const before = platform.jwksReads();
    expectRefusalPage(await launchWith({ key: platform.otherKey, kid: 'kid-nobody-published' }), 401, /key the platform does not publish/);
    expect(platform.jwksReads()).toBeGreaterThanOrEqual(before);
  });

  it('wrong iss', async () => {
    expectRefusalPage(await launchWith({ overrides: { iss: 'https://evil.example' } }), 401, /another issuer/);
  });

  it('wrong aud', async () => {
    expectRefusalPage(await launchWith({ overrides: { aud: 'another-client' } }), 401, /another client id/);
  });

  it('several audiences without azp, or an azp naming another client', async () => {
    expectRefusalPage(await launchWith({ overrides: { aud: [platform.clientId, 'x'] } }), 401, /azp/);
    expectRefusalPage(await launchWith({ overrides: { azp: 'another-client' } }), 401, /azp/);
  });

  it('expired, and issued too long ago or in the future (beyond 60 s of leeway)', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectRefusalPage(await launchWith({ issuedAt: now - 200, expiresIn: 100 }), 401, /expired/);
    expectRefusalPage(await launchWith({ issuedAt: now - 3600, expiresIn: 7200 }), 401, /expired/);
    expectRefusalPage(await launchWith({ issuedAt: now + 600 }), 401, /expired/);
    // Within the leeway: accepted.
    expect((await launchWith({ issuedAt: now + 30 })).statusCode).toBe(302);
  });

  it('reused nonce (the same token posted twice), and a nonce that is not the login’s', async () => {
    const { state, nonce, cookie } = await login();
    const idToken = await platform.idToken({ nonce });
    expect((await launch({ id_token: idToken, state }, cookie)).statusCode).toBe(302);
    const replay = await launch({ id_token: idToken, state }, cookie);
    // Signed by the platform: back to its return URL with lti_errormsg.
    expect(replay.statusCode).toBe(302);
    const back = new URL(replay.headers.location ?? '');
    expect(`${back.origin}${back.pathname}`).toBe('https://lms.example.edu/courses/7');
    expect(back.searchParams.get('lti_errormsg')).toContain('already been used');

    const other = await login();
    expectRefusalPage(await launch({ id_token: await platform.idToken({ nonce: 'not-the-login-nonce' }), state: other.state }, other.cookie), 401, /nonce/);
  });

  const withoutReturn = { [`${CLAIM}launch_presentation`]: undefined };
  it('missing deployment id', async () => {
    expectRefusalPage(await launchWith({ overrides: { ...withoutReturn, [`${CLAIM}deployment_id`]: undefined } }), 403, /names no deployment id/);
  });

  it('unknown deployment', async () => {
    expectRefusalPage(await launchWith({ overrides: { ...withoutReturn, [`${CLAIM}deployment_id`]: 'deployment-unknown' } }), 403, /deployment-unknown/);
  });

  it('wrong message type', async () => {
    expectRefusalPage(await launchWith({ overrides: { ...withoutReturn, [`${CLAIM}message_type`]: 'LtiSubmissionReviewRequest' } }), 400, /resource link launches/);
  });

  it('wrong version', async () => {
    expectRefusalPage(await launchWith({ overrides: { ...withoutReturn, [`${CLAIM}version`]: '1.1.0' } }), 400, /1\.3\.0/);
  });

  it('missing roles', async () => {
    expectRefusalPage(await launchWith({ overrides: { ...withoutReturn, [`${CLAIM}roles`]: undefined } }), 400, /roles/);
  });

  it('missing resource link, missing sub', async () => {
    expectRefusalPage(await launchWith({ overrides: { ...withoutReturn, [`${CLAIM}resource_link`]: undefined } }), 400, /resource_link_id/);
    expectRefusalPage(await launchWith({ overrides: { ...withoutReturn, sub: undefined } }), 400, /user id/);
  });

  it('a token that is not a JWT, an unsigned (alg none) token, a symmetric (HS256) token', async () => {
    const { state, cookie } = await login();
    expectRefusalPage(await launch({ id_token: 'not-a-token', state }, cookie), 401, /not a signed token/);
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: platform.issuer })).toString('base64url')}.`;
    expectRefusalPage(await launch({ id_token: none, state }, cookie), 401, /not valid/);
    const hs = await new SignJWT({ iss: platform.issuer, aud: platform.clientId, nonce: 'x' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('5m').sign(new Uint8Array(32));
    expectRefusalPage(await launch({ id_token: hs, state }, cookie), 401, /algorithm/);
  });

  it('a state this tool did not sign, none at all, or from a browser that kept no cookie (with the new-window way in)', async () => {
    const { state, nonce, cookie } = await login();
    const idToken = await platform.idToken({ nonce });
    expectRefusalPage(await launch({ id_token: idToken, state: `${state}x` }, cookie), 401, /does not come from a login/);
    expectRefusalPage(await launch({ id_token: idToken }, cookie), 401, /does not come from a login/);
    const lost = await launch({ id_token: idToken, state }, '');
    expectRefusalPage(lost, 401, /did not keep/);
    const href = /href="([^"]+)"/.exec(lost.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(lost.body).toContain('target="_blank"');
    const again = new URL(href);
    expect(again.pathname).toBe('/lti/1.3/login');
    expect(Object.fromEntries(again.searchParams)).toMatchObject({ iss: platform.issuer, client_id: platform.clientId, login_hint: 'hint-42', lti_message_hint: 'message-hint' });
    // That link starts a fresh login.
    expect((await t.app.inject({ method: 'GET', url: `${again.pathname}${again.search}` })).statusCode).toBe(302);
  });

  it('a platform’s own refusal (error=login_required) is said as it is', async () => {
    expectRefusalPage(await launch({ error: 'login_required', error_description: 'The user is not signed in' }, ''), 400, /not signed in/);
  });

  it('a login from an unknown issuer, without its hints, or for another target', async () => {
    const base = { iss: platform.issuer, login_hint: 'h', target_link_uri: launchUrl };
    expectRefusalPage(await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${new URLSearchParams({ ...base, iss: 'https://unknown.example' })}` }), 400, /not registered/);
    expectRefusalPage(await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${new URLSearchParams({ iss: platform.issuer })}` }), 400, /login hint/);
    expectRefusalPage(await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${new URLSearchParams({ ...base, target_link_uri: 'https://evil.example/lti' })}` }), 400, /target link/);
    expectRefusalPage(await t.app.inject({ method: 'GET', url: `/lti/1.3/login?${new URLSearchParams({ ...base, lti_deployment_id: 'nope' })}` }), 403, /deployment/);
  });

  it('never answers 5xx to junk', async () => {
    const forms: Array<Record<string, string>> = [{}, { id_token: '', state: '' }, { id_token: 'a.b.c', state: 'a.b' }, { state: 'eyJ9.x' }, { id_token: '...', state: '....' }];
    for (const form of forms) {
      const response = await launch(form, 'lti_state_x=y');
      expect(response.statusCode, JSON.stringify(form)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(form)).toBeLessThan(500);
    }
  });
});

describe('platform registration (LMS Integration)', () => {
  it('lists the tool’s values and the platforms; admins only', async () => {
    const read = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/lti/platforms`, headers: admin });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      loginUrl: `${t.env.PUBLIC_URL}/lti/1.3/login`,
      launchUrl,
      jwksUrl: `${t.env.PUBLIC_URL}/lti/1.3/jwks`,
      platforms: [{ issuer: platform.issuer, clientId: platform.clientId, deploymentIds: [platform.deploymentId, 'another-deployment'] }],
    });
    const teacher = await signIn(t.app, { email: unique('teacher') });
    expect((await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/lti/platforms`, headers: teacher.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/lti/platforms` })).statusCode).toBe(401);
  });

  it('refuses http addresses that are not this computer’s, a duplicate, and bad input; changes nothing', async () => {
    const url = `/api/organisations/${orgId}/lti/platforms`;
    const http = await t.app.inject({ method: 'POST', url, headers: admin, payload: registration(platform, { clientId: 'x1', jwksUrl: 'http://lms.example.edu/jwks' }) });
    expect(http.statusCode).toBe(400);
    expect(http.json().code).toBe('lti_platform_url_insecure');
    expect((await t.app.inject({ method: 'POST', url, headers: admin, payload: registration(platform) })).json().code).toBe('lti_platform_exists');
    expect((await t.app.inject({ method: 'POST', url, headers: admin, payload: registration(platform, { deploymentIds: [] }) })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url, headers: admin, payload: registration(platform, { issuer: 'not a url' }) })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url, headers: admin })).json().platforms).toHaveLength(1);
    expect(isAcceptedPlatformUrl({ NODE_ENV: 'production' }, 'http://127.0.0.1:9000/jwks')).toBe(false);
    expect(isAcceptedPlatformUrl({ NODE_ENV: 'production' }, 'https://canvas.instructure.com')).toBe(true);
    expect(isAcceptedPlatformUrl({ NODE_ENV: 'development' }, 'http://localhost:9000')).toBe(true);
    expect(isAcceptedPlatformUrl({ NODE_ENV: 'development' }, 'http://10.0.0.5')).toBe(false);
  });

  it('answers 409, never 500, when several admins register or edit to the same issuer and client id at once', async () => {
    const url = `/api/organisations/${orgId}/lti/platforms`;
    const issuer = 'https://lms-race.example.edu';
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const created = await t.app.inject({ method: 'POST', url, headers: admin, payload: registration(platform, { issuer, clientId: `race-${i}` }) });
      expect(created.statusCode, created.body).toBe(201);
      ids.push((created.json() as { id: string }).id);
    }
    const shared = registration(platform, { issuer, clientId: 'race-shared' });
    // Every platform edited to one issuer and client id, and the same one registered, all at once.
    const answers = await Promise.all([
      ...ids.map((id) => t.app.inject({ method: 'PUT', url: `${url}/${id}`, headers: admin, payload: shared })),
      ...ids.map(() => t.app.inject({ method: 'POST', url, headers: admin, payload: shared })),
    ]);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200 || s === 201), JSON.stringify(statuses)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.statusCode >= 400)) {
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json().code).toBe('lti_platform_exists');
    }
    const listed = (await t.app.inject({ method: 'GET', url, headers: admin })).json().platforms as Array<{ id: string; clientId: string }>;
    expect(listed.filter((p) => p.clientId === 'race-shared')).toHaveLength(1);
    for (const p of listed.filter((row) => row.clientId.startsWith('race-'))) {
      expect((await t.app.inject({ method: 'DELETE', url: `${url}/${p.id}`, headers: admin })).statusCode).toBe(204);
    }
  });

  it('edits and removes a platform; a removed platform’s launches are refused', async () => {
    const second = await startPlatform({ toolLaunchUrl: launchUrl });
    try {
      const url = `/api/organisations/${orgId}/lti/platforms`;
      const created = (await t.app.inject({ method: 'POST', url, headers: admin, payload: registration(second) })).json() as { id: string };
      const edited = await t.app.inject({ method: 'PUT', url: `${url}/${created.id}`, headers: admin, payload: registration(second, { name: 'Moodle', deploymentIds: ['d2'] }) });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ name: 'Moodle', deploymentIds: ['d2'] });
      const taken = await t.app.inject({ method: 'PUT', url: `${url}/${created.id}`, headers: admin, payload: registration(platform) });
      expect(taken.json().code).toBe('lti_platform_exists');
      const { state } = await login(second);
      expect((await t.app.inject({ method: 'DELETE', url: `${url}/${created.id}`, headers: admin })).statusCode).toBe(204);
      expect((await t.app.inject({ method: 'DELETE', url: `${url}/${created.id}`, headers: admin })).statusCode).toBe(204);
      expect((await t.app.inject({ method: 'PUT', url: `${url}/${created.id}`, headers: admin, payload: registration(second) })).statusCode).toBe(404);
      expectRefusalPage(await launch({ id_token: 'x.y.z', state }, ''), 400, /not registered/);

      // Each change is in the audit log, by the admin, with the platform named and old → new; the refused edit and the
      // second removal (nothing left to remove) are not.
      const entries = (await t.app.db.selectFrom('audit_events').select(['action', 'actor_email', 'target_ids', 'targets', 'old_value', 'new_value'])
        .where('organisation_id', '=', orgId).where('action', 'like', 'lti.platform.%').orderBy('created_at').orderBy('id').execute())
        .filter((e) => e.target_ids.includes(created.id));
      expect(entries.map((e) => e.action)).toEqual(['lti.platform.add', 'lti.platform.update', 'lti.platform.remove']);
      for (const entry of entries) expect(entry.actor_email).toBe(adminEmail);
      expect(entries[0]!.targets).toEqual([{ type: 'lti_platform', id: created.id, label: expect.stringContaining(second.issuer) }]);
      expect(entries[1]!.old_value).toMatchObject({ name: 'Simulated LMS', deploymentIds: [second.deploymentId, 'another-deployment'] });
      expect(entries[1]!.new_value).toMatchObject({ name: 'Moodle', deploymentIds: ['d2'] });
      expect(entries[2]!.old_value).toMatchObject({ name: 'Moodle', clientId: second.clientId });
    } finally {
      await second.close();
    }
  });
});

describe('the tool’s keys', () => {
  it('publishes the current key at the JWKS URL; a rotated key keeps the old one published', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/lti/1.3/jwks' });
    expect(response.statusCode).toBe(200);
    const { keys } = response.json() as { keys: Array<{ kid: string; kty: string; alg: string; d?: string }> };
    expect(keys.length).toBeGreaterThanOrEqual(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    expect(keys.every((k) => k.d === undefined)).toBe(true);
    const stored = await t.app.db.selectFrom('lti_tool_keys').select('private_key').execute();
    expect(stored.every((k) => k.private_key.startsWith('enc:v1:'))).toBe(true);

    const current = await ensureToolKey(t.app.db, t.env);
    expect(await ensureToolKey(t.app.db, t.env)).toBe(current);
    const later = new Date(Date.now() + 91 * 86_400_000);
    const rotated = await ensureToolKey(t.app.db, t.env, later);
    expect(rotated).not.toBe(current);
    const published = (await publicJwks(t.app.db, later)).keys.map((k) => k.kid);
    expect(published).toEqual([rotated, current]);
    // A week after its retirement the old key is no longer published.
    expect((await publicJwks(t.app.db, new Date(later.getTime() + 8 * 86_400_000))).keys.map((k) => k.kid)).toEqual([rotated]);
    // Something the tool signs verifies with what it publishes.
    const set = createLocalJWKSet(await publicJwks(t.app.db));
    const { currentSigningKey } = await import('./lti-tool-keys.js');
    const { kid, key } = await currentSigningKey(t.app.db, t.env);
    const jwt = await new SignJWT({ a: 1 }).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
    expect((await jwtVerify(jwt, set)).payload.a).toBe(1);
  });
});
