import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { sessionCookieFrom, signIn } from '../../../test/auth.js';
import { appForFile, tryWrongPasswords, uniqueEmail as unique } from '../../../test/file-app.js';

const t = appForFile();

describe('abuse resistance', () => {
  it('a burst of wrong passwords ends in 429 auth/too-many-requests', async () => {
    const responses = await tryWrongPasswords(unique('burst'), 12, () => ({ app: t.app }));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    for (const refused of responses.slice(10)) {
      expect(refused.json()).toMatchObject({
        code: 'auth/too-many-requests',
        message: 'You have entered an incorrect password too many times. Please try again in a few minutes.',
      });
    }
  });

  it('two copies of the server on one database share the counters', async () => {
    const copy = await buildApp({ env: t.env, database: t.database, logger: false });
    await copy.ready();
    try {
      const email = unique('shared');
      const statuses = (await tryWrongPasswords(email, 12, (i) => ({ app: i % 2 === 0 ? t.app : copy }))).map((response) => response.statusCode);
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
      // Another address (or route) has its own count.
      const other = await copy.inject({ method: 'POST', url: '/identity/request-password-reset', headers: { origin: t.origin }, payload: { email } });
      expect(other.statusCode).toBe(200);
    } finally {
      await copy.close();
    }
  });

  it('the identity sign-in and reset routes are limited too', async () => {
    const email = unique('reset-burst');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await t.app.inject({ method: 'POST', url: '/identity/request-password-reset', headers: { origin: t.origin }, payload: { email } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('refuses state-changing requests without a trusted Origin (CSRF)', async () => {
    const { headers } = await signIn(t.app, { email: unique('csrf') });
    const { origin: _origin, ...noOrigin } = headers;
    const missing = await t.app.inject({ method: 'POST', url: '/identity/sign-out', headers: noOrigin });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().code).toBe('csrf_origin_refused');
    const foreign = await t.app.inject({ method: 'POST', url: '/api/v2/access-log/re-auth', headers: { ...headers, origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    // The session survived both attempts.
    expect((await t.app.inject({ method: 'GET', url: '/identity/token', headers })).statusCode).toBe(200);
  });

  it('401 acting_user_mismatch when X-Acting-User names someone else', async () => {
    const me = await signIn(t.app, { email: unique('acting') });
    const other = await signIn(t.app, { email: unique('acting-other') });
    const response = await t.app.inject({ method: 'POST', url: '/api/v2/access-log/re-auth', headers: { ...me.headers, 'x-acting-user': other.userId } });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('acting_user_mismatch');
    const graphql = await t.app.inject({ method: 'POST', url: '/graphql', headers: { ...me.headers, 'x-acting-user': other.userId }, payload: { query: '{ getOrganisations { id } }' } });
    expect(graphql.statusCode).toBe(401);
  });

  it('signing in issues a new session id and ends the one the browser held', async () => {
    const email = unique('rotate');
    const first = await signIn(t.app, { email, password: 'secret-1' });
    const signInAgain = await t.app.inject({ method: 'POST', url: '/identity/sign-in/email', headers: { origin: t.origin, cookie: first.headers.cookie }, payload: { email, password: 'secret-1' } });
    expect(signInAgain.statusCode).toBe(200);
    const second = sessionCookieFrom(signInAgain.headers['set-cookie']);
    expect(second).toBeDefined();
    expect(second).not.toBe(first.headers.cookie);
    expect((await t.app.inject({ method: 'GET', url: '/identity/token', headers: { cookie: first.headers.cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/identity/token', headers: { cookie: second ?? '' } })).statusCode).toBe(200);
  });
});
