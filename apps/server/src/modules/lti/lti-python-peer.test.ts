import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { consoleOrigin, signIn } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation } from '../../../test/factories.js';
import { pythonPeer } from '../../../test/python-peer.js';

/**
 * Launches signed by a learning platform the project did not write: Python's oauthlib (Debian's
 * python3-oauthlib, which .ci/run installs), through test/peers/lti_consumer.py. A teacher, a learner, names
 * outside ASCII, both signature methods: each lands in the app, signed in as the platform user's own account.
 */

const APP_URL = 'https://app.quire.test';
const peer = pythonPeer('lti_consumer.py', ['oauthlib'], ['python3-oauthlib']);

function pythonSigned(input: { url: string; key: string; secret: string; method: 'HMAC-SHA1' | 'HMAC-SHA256'; params: Record<string, string> }): string {
  return peer.run(input);
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ APP_URL });
});
afterAll(() => t?.close());

describe.skipIf(!peer.available)('launches signed by Python oauthlib', () => {
  const cases = [
    { name: 'an instructor, HMAC-SHA1', method: 'HMAC-SHA1', roles: 'Instructor', fullName: 'Ada Lovelace', kind: false },
    { name: 'a learner, HMAC-SHA256', method: 'HMAC-SHA256', roles: 'urn:lti:role:ims/lis/Learner', fullName: 'Sam Student', kind: true },
    { name: 'names outside ASCII, HMAC-SHA256', method: 'HMAC-SHA256', roles: 'Instructor', fullName: 'Zoë Ødegård 李雷 🙂', kind: false },
    { name: 'names outside ASCII, HMAC-SHA1', method: 'HMAC-SHA1', roles: 'Learner', fullName: 'Łukasz Müller-Nuñez', kind: true },
  ] as const;

  it.each(cases)('$name lands in the app as the platform user', async ({ method, roles, fullName, kind }) => {
    const org = await buildOrganisation(t.app.db);
    const admin = await buildAdmin(t.app.db, { organisationId: org.id });
    const { headers } = await signIn(t.app, { email: admin.email });
    const generated = await t.app.inject({
      method: 'POST', url: '/graphql', headers,
      payload: { query: 'mutation g($orgId: ID!) { generateLTICredentials(orgId: $orgId) { consumerKey consumerSecret launchUrl } }', variables: { orgId: org.id } },
    });
    const credentials = generated.json().data.generateLTICredentials as { consumerKey: string; consumerSecret: string; launchUrl: string };
    const userId = `py-${Math.random().toString(36).slice(2, 10)}`;
    const body = pythonSigned({
      url: credentials.launchUrl,
      key: credentials.consumerKey,
      secret: credentials.consumerSecret,
      method,
      params: {
        lti_message_type: 'basic-lti-launch-request',
        lti_version: 'LTI-1p0',
        resource_link_id: 'python-link',
        context_id: 'course-π',
        user_id: userId,
        roles,
        lis_person_name_full: fullName,
        lis_person_contact_email_primary: 'someone@school.example.org',
      },
    });
    const response = await t.app.inject({ method: 'POST', url: '/lti/launch', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });
    expect(response.statusCode, response.body).toBe(302);
    const location = new URL(response.headers.location ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${APP_URL}/lti`);

    const session = await t.app.inject({
      method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: consoleOrigin(t.app) }, payload: { token: location.searchParams.get('token') },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json().user).toMatchObject({ name: fullName, emailVerified: false });
    const link = await t.app.db.selectFrom('lti_users').select(['user_id', 'contact_email']).where('organisation_id', '=', org.id).where('lti_user_id', '=', userId).executeTakeFirstOrThrow();
    expect(link).toEqual({ user_id: session.json().user.id, contact_email: 'someone@school.example.org' });
    const member = await t.app.db.selectFrom('members').select(['display_name', 'is_student']).where('organisation_id', '=', org.id).where('user_id', '=', link.user_id).executeTakeFirstOrThrow();
    expect(member).toEqual({ display_name: fullName, is_student: kind });

    // The same body again is a replay, whichever library signed it.
    const replay = await t.app.inject({ method: 'POST', url: '/lti/launch', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });
    expect(replay.statusCode).toBe(401);
  });
});
