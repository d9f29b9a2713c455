import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helper.js';
import { appWithPlatform } from '../../../test/lti.helpers.js';
import { ROLE, type PlatformSimulator } from '../../../test/lti-platform.js';
import { pythonPeer } from '../../../test/python-peer.js';

/**
 * LTI 1.3 id_tokens written and signed by a second, independent implementation: Python's PyJWT (Debian's python3-jwt
 * with python3-cryptography, which .ci/run installs) through test/peers/lti_id_token.py, with the simulator's key. The
 * verifier accepts what another JOSE library produces, and still refuses it for another audience.
 */
const APP_URL = 'https://app.quire.test';
const peer = pythonPeer('lti_id_token.py', ['jwt', 'cryptography'], ['python3-jwt', 'python3-cryptography']);

let t: TestApp;
let platform: PlatformSimulator;
let launchUrl: string;
let orgId: string;

beforeAll(async () => {
  ({ t, launchUrl, platform, orgId } = await appWithPlatform(APP_URL, 'Python platform'));
});
afterAll(async () => {
  await platform?.close();
  await t?.close();
});

/** The login, then the launch with the id_token Python writes for that login's nonce. */
async function launchSignedByPython(claims: { sub: string; name: string; roles: string[]; audience?: string; messageType?: string }) {
  const login = await t.app.inject({
    method: 'GET',
    url: `/lti/1.3/login?${new URLSearchParams({ iss: platform.issuer, login_hint: 'py', target_link_uri: launchUrl, client_id: platform.clientId })}`,
  });
  expect(login.statusCode, login.body).toBe(302);
  const redirect = new URL(login.headers.location ?? '');
  const cookie = [login.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('lti_state_'))?.split(';')[0] ?? '';
  const idToken = peer
    .run({
      key: platform.privateKeyPem,
      kid: platform.kid,
      issuer: platform.issuer,
      audience: claims.audience ?? platform.clientId,
      deployment_id: platform.deploymentId,
      nonce: redirect.searchParams.get('nonce'),
      sub: claims.sub,
      name: claims.name,
      roles: claims.roles,
      target_link_uri: launchUrl,
      message_type: claims.messageType ?? 'LtiResourceLinkRequest',
      deep_link_return_url: `${platform.issuer}/deep-link-return`,
    })
    .trim();
  expect(idToken.split('.')).toHaveLength(3);
  return t.app.inject({
    method: 'POST',
    url: '/lti/1.3/launch',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    payload: new URLSearchParams({ id_token: idToken, state: redirect.searchParams.get('state') ?? '' }).toString(),
  });
}

describe.skipIf(!peer.available)('LTI 1.3 id_tokens signed by Python PyJWT', () => {
  it('a teacher’s launch lands in the app, signed in as the platform user', async () => {
    const sub = `py-${randomUUID().slice(0, 8)}`;
    const response = await launchSignedByPython({ sub, name: 'Zoë Python', roles: [ROLE.instructor] });
    expect(response.statusCode, response.body).toBe(302);
    const landed = new URL(response.headers.location ?? '');
    expect(`${landed.origin}${landed.pathname}`).toBe(`${APP_URL}/lti`);
    const session = await t.app.inject({
      method: 'POST',
      url: '/identity/one-time-token/verify',
      headers: { origin: APP_URL },
      payload: { token: landed.searchParams.get('token') },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().user).toMatchObject({ name: 'Zoë Python', emailVerified: false });
    const link = await t.app.db.selectFrom('lti_users').select(['user_id', 'contact_email']).where('lti_user_id', '=', `lti1p3:${platform.issuer} ${sub}`).executeTakeFirstOrThrow();
    expect(link).toEqual({ user_id: session.json().user.id, contact_email: 'python.platform@school.example.org' });
  });

  it('a learner’s launch makes a student', async () => {
    const response = await launchSignedByPython({ sub: `py-${randomUUID().slice(0, 8)}`, name: 'Sam Python', roles: [ROLE.learner] });
    expect(response.statusCode, response.body).toBe(302);
    const token = new URL(response.headers.location ?? '').searchParams.get('token');
    const session = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: APP_URL }, payload: { token } });
    const member = await t.app.db.selectFrom('members').select('is_student').where('organisation_id', '=', orgId).where('user_id', '=', session.json().user.id).executeTakeFirstOrThrow();
    expect(member.is_student).toBe(true);
  });

  it('a deep linking request opens the picker', async () => {
    const response = await launchSignedByPython({ sub: `py-${randomUUID().slice(0, 8)}`, name: 'Ada Python', roles: [ROLE.instructor], messageType: 'LtiDeepLinkingRequest' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).toContain('What should this link open?');
  });

  it('refuses the same token meant for another client id (wrong aud)', async () => {
    const response = await launchSignedByPython({ sub: `py-${randomUUID().slice(0, 8)}`, name: 'Eve Python', roles: [ROLE.instructor], audience: 'another-client' });
    expect(response.statusCode, response.body).toBe(401);
    expect(response.body).toContain('meant for another client id');
  });
});
