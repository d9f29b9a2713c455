import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { loadEnv } from '../../env.js';
import { sessionCookieFrom, signIn } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation } from '../../../test/factories.js';
import { launchParams, signLaunch, type Consumer } from '../../../test/lti-consumer.js';

/**
 * The step after a launch: the product's app, on its own origin (APP_URL), exchanges the single-use token for a
 * session and reads which apps the user may use. Only the calls the app needs answer that origin.
 */
const APP_URL = 'https://app.quire.test';
const OTHER_PRODUCT = 'https://books.quire.test';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ APP_URL, PRODUCT_APP_ORIGINS: `${OTHER_PRODUCT}, https://reader.quire.test/` });
});
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

async function launchedToken(params: Record<string, string> = {}): Promise<{ token: string; organisationId: string }> {
  const org = await buildOrganisation(t.app.db);
  const email = unique('admin');
  await buildAdmin(t.app.db, { organisationId: org.id, email });
  const admin = await signIn(t.app, { email });
  const generated = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: admin.headers,
    payload: { query: 'mutation g($orgId: ID!) { generateLTICredentials(orgId: $orgId) { consumerKey consumerSecret } }', variables: { orgId: org.id } },
  });
  const creds = generated.json().data.generateLTICredentials as { consumerKey: string; consumerSecret: string };
  const consumer: Consumer = { key: creds.consumerKey, secret: creds.consumerSecret };
  const { form } = signLaunch(`${t.env.PUBLIC_URL}/lti/launch`, consumer, launchParams(params));
  const response = await t.app.inject({
    method: 'POST',
    url: '/lti/launch',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://canvas.example.edu' },
    payload: new URLSearchParams(form).toString(),
  });
  expect(response.statusCode).toBe(302);
  const landed = new URL(response.headers.location ?? '');
  return { token: landed.searchParams.get('token') ?? '', organisationId: org.id };
}

describe('the product app exchanges a launch token from its own origin', () => {
  it('answers the preflight naming the app origin, with credentials', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/identity/one-time-token/verify',
      headers: { origin: APP_URL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(APP_URL);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
  });

  it('signs a launched student in from the app origin, and the session reads their own apps and role', async () => {
    const { token, organisationId } = await launchedToken({ roles: 'Learner' });
    const signedIn = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: APP_URL }, payload: { token } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['access-control-allow-origin']).toBe(APP_URL);
    expect(signedIn.headers['access-control-allow-credentials']).toBe('true');
    const cookie = sessionCookieFrom(signedIn.headers['set-cookie']);
    expect(cookie).toBeDefined();
    const userId = signedIn.json().user.id as string;

    const apps = await t.app.inject({ method: 'GET', url: `/api/organisations/${organisationId}/users/${userId}/apps`, headers: { origin: APP_URL, cookie: cookie ?? '' } });
    expect(apps.statusCode).toBe(200);
    expect(apps.headers['access-control-allow-origin']).toBe(APP_URL);
    expect(apps.json()).toMatchObject({ userId, organisationId, kind: 'student' });

    // Another user's apps stay closed to a launched user (they are no admin of the organisation).
    const admin = await t.app.db.selectFrom('admins').select('user_id').where('organisation_id', '=', organisationId).executeTakeFirstOrThrow();
    const other = await t.app.inject({ method: 'GET', url: `/api/organisations/${organisationId}/users/${admin.user_id}/apps`, headers: { origin: APP_URL, cookie: cookie ?? '' } });
    expect(other.statusCode).toBe(403);
  });

  it('a launched teacher reads the teacher kind', async () => {
    const { token, organisationId } = await launchedToken({ roles: 'Instructor' });
    const signedIn = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: OTHER_PRODUCT }, payload: { token } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['access-control-allow-origin']).toBe(OTHER_PRODUCT);
    const cookie = sessionCookieFrom(signedIn.headers['set-cookie']) ?? '';
    const apps = await t.app.inject({ method: 'GET', url: `/api/organisations/${organisationId}/users/${signedIn.json().user.id}/apps`, headers: { cookie } });
    expect(apps.json()).toMatchObject({ kind: 'teacher' });
  });

  it('refuses other origins, and the app origin for calls the app does not need', async () => {
    const { token } = await launchedToken();
    const evil = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: 'https://evil.example' }, payload: { token } });
    expect(evil.statusCode).toBe(403);
    expect(evil.json().code).toBe('csrf_origin_refused');
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/identity/one-time-token/verify',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();

    // The console's own calls stay the console's: signing in with a password from the app origin is refused.
    const password = await t.app.inject({ method: 'POST', url: '/identity/sign-in/email', headers: { origin: APP_URL }, payload: { email: unique('x'), password: 'whatever-1' } });
    expect(password.statusCode).toBe(403);
    expect(password.headers['access-control-allow-origin']).toBeUndefined();
    const graphql = await t.app.inject({ method: 'POST', url: '/graphql', headers: { origin: APP_URL }, payload: { query: '{ __typename }' } });
    expect(graphql.statusCode).toBe(403);
    expect(graphql.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('PRODUCT_APP_ORIGINS', () => {
  it('takes origins only: a path, a non-http scheme or a word stops the start', () => {
    expect(loadEnv({ PRODUCT_APP_ORIGINS: 'https://books.example.org, http://127.0.0.1:5174/' }).PRODUCT_APP_ORIGINS).toContain('books');
    for (const bad of ['https://books.example.org/app', 'ftp://books.example.org', 'books']) {
      expect(() => loadEnv({ PRODUCT_APP_ORIGINS: bad }), bad).toThrow(/PRODUCT_APP_ORIGINS/);
    }
  });
});
