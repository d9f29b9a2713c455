import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { consoleOrigin, sessionCookieFrom, signIn } from '../../../test/auth.js';
import { buildOrganisation } from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

describe('session cookie and ID token', () => {
  it('custom-token sign-in sets __admin_session with the spec attributes', async () => {
    const { userId, headers } = await signIn(t.app, { email: unique('cookie') });
    expect(headers.cookie).toMatch(/^__admin_session=/);
    const me = await t.app.inject({ method: 'GET', url: '/identity/get-session', headers });
    expect(me.json().user.id).toBe(userId);

    const token = await t.app.inject({ method: 'POST', url: '/payments/v1/admin/auth', headers });
    expect(token.statusCode, token.body).toBe(200);
    expect(token.headers['content-type']).toMatch(/text\/plain/);
    const verify = await t.app.inject({
      method: 'POST',
      url: '/identity/one-time-token/verify',
      headers: { origin: consoleOrigin(t.app) },
      payload: { token: token.body },
    });
    expect(verify.statusCode).toBe(200);
    const setCookie = [verify.headers['set-cookie']].flat().find((c) => c?.startsWith('__admin_session='));
    expect(setCookie).toBeDefined();
    const attributes = (setCookie ?? '').split(';').map((a) => a.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=lax', 'max-age=3600']));
  });

  it('a custom token works once', async () => {
    const { headers } = await signIn(t.app, { email: unique('once') });
    const token = (await t.app.inject({ method: 'POST', url: '/payments/v1/admin/auth', headers })).body;
    const origin = consoleOrigin(t.app);
    const first = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin }, payload: { token } });
    const second = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin }, payload: { token } });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(400);
  });

  it('the ID token carries bc_orgs with admin and library-manager roles', async () => {
    const email = unique('roles');
    const administered = await buildOrganisation(t.app.db);
    const managed = await buildOrganisation(t.app.db, { org_libraries: true });
    const notLibraries = await buildOrganisation(t.app.db, { org_libraries: false });
    await t.app.db.insertInto('admins').values({ organisation_id: administered.id, email }).execute();
    for (const org of [managed, notLibraries]) {
      await t.app.db.insertInto('members').values({ id: crypto.randomUUID(), organisation_id: org.id, email, role: 400, pending: false }).execute();
    }
    const { userId, headers } = await signIn(t.app, { email });
    const response = await t.app.inject({ method: 'GET', url: '/identity/token', headers });
    expect(response.statusCode).toBe(200);
    const claims = decodeJwt(response.json().token);
    expect(claims.sub).toBe(userId);
    expect(claims.email).toBe(email);
    expect(claims.email_verified).toBe(true);
    expect(claims.bc_orgs).toEqual({ [administered.id]: 'admin', [managed.id]: 'library-manager' });
  });

  it('an unverified user has a session but no organisation roles in the token', async () => {
    const email = unique('unverified');
    const org = await buildOrganisation(t.app.db);
    await t.app.db.insertInto('admins').values({ organisation_id: org.id, email }).execute();
    const { headers } = await signIn(t.app, { email, verified: false });
    const session = await t.app.inject({ method: 'GET', url: '/identity/get-session', headers });
    expect(session.json().user.emailVerified).toBe(false);
    const claims = decodeJwt((await t.app.inject({ method: 'GET', url: '/identity/token', headers })).json().token);
    expect(claims.email_verified).toBe(false);
    expect(claims.bc_orgs).toEqual({});
  });

  it('token refresh extends a session that is 20 minutes old by a fresh hour', async () => {
    const { userId, headers } = await signIn(t.app, { email: unique('extend') });
    await t.app.db.updateTable('session').set({ expiresAt: new Date(Date.now() + 40 * 60_000) }).where('userId', '=', userId).execute();
    const response = await t.app.inject({ method: 'GET', url: '/identity/token', headers });
    expect(response.statusCode).toBe(200);
    const renewed = [response.headers['set-cookie']].flat().find((c) => c?.startsWith('__admin_session='));
    expect(renewed).toMatch(/Max-Age=3600/i);
    const session = await t.app.db.selectFrom('session').select('expiresAt').where('userId', '=', userId).executeTakeFirstOrThrow();
    expect(new Date(session.expiresAt).getTime() - Date.now()).toBeGreaterThan(55 * 60_000);
  });

  it('token refresh gives a fresh ID token while the session is valid, 401 after sign-out', async () => {
    const { headers } = await signIn(t.app, { email: unique('refresh') });
    const first = await t.app.inject({ method: 'GET', url: '/identity/token', headers });
    expect(first.statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/identity/sign-out', headers });
    expect(out.statusCode).toBe(200);
    const cleared = [out.headers['set-cookie']].flat().find((c) => c?.startsWith('__admin_session='));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(sessionCookieFrom(out.headers['set-cookie'])).toBeUndefined();
    // The old cookie no longer works anywhere.
    expect((await t.app.inject({ method: 'GET', url: '/identity/token', headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v2/access-log/re-auth', headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/identity/get-session', headers })).json()).toBeNull();
  });
});
