import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleOrigin, signIn } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { verifySessionCookie } from './session-actor.js';

// The actor hook reads the session itself (one statement after a local signature check): it must open exactly
// what Better Auth's getSession opens, and nothing after the session ends.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

/**
 * The two ways a route reads the session: the actor hook before the route runs (the CSV export), or the route's own
 * statement (the Teachers page and the settings: `config.sessionInStatement`); and the Teachers list unpaged, which
 * reads it on its own.
 * Each must open exactly what the other opens.
 */
const ROUTES = [
  ['the CSV export (session read by the actor hook)', (orgId: string) => `/payments/v1/admin/organisations/${orgId}/members/teachers/export.csv`],
  ['the Teachers page (session read in its own statement)', (orgId: string) => `/payments/v1/admin/organisations/${orgId}/members/teachers?page=1&pageSize=10`],
  ['the whole Teachers list (session read on its own)', (orgId: string) => `/payments/v1/admin/organisations/${orgId}/members/teachers`],
  ['the effective settings (session read in its own statement)', (orgId: string) => `/api/organisations/${orgId}/settings?include=sources`],
  ['the settings in force (session read in its own statement)', (orgId: string) => `/api/organisations/${orgId}/settings`],
] as const;

describe.each(ROUTES)('the session behind %s', (_name, urlOf) => {
  async function adminSession(options: { verified?: boolean } = {}) {
    const org = await buildOrganisation(t.app.db);
    // Unverified: the admin row names the address only, and signing in makes its user, unverified.
    const admin = await buildAdmin(t.app.db, { organisationId: org.id, withUser: options.verified !== false });
    const { userId, headers } = await signIn(t.app, { email: admin.email, verified: options.verified });
    return { userId, headers, url: urlOf(org.id), org };
  }

  it('accepts the signed cookie, and refuses it altered, re-signed with another secret, or without its signature', async () => {
    const { headers, url } = await adminSession();
    expect((await t.app.inject({ url, headers })).statusCode).toBe(200);
    const value = decodeURIComponent(headers.cookie.slice(headers.cookie.indexOf('=') + 1));
    const token = value.slice(0, value.lastIndexOf('.'));
    const signature = value.slice(value.lastIndexOf('.') + 1);
    expect(verifySessionCookie(value, t.env.AUTH_SECRET!)).toBe(token);
    const altered = [
      `${token}x.${signature}`,
      `${token}.${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`,
      token,
      `${token}.${Buffer.alloc(32).toString('base64')}`,
    ];
    for (const cookieValue of altered) {
      expect(verifySessionCookie(cookieValue, t.env.AUTH_SECRET!)).toBeNull();
      const res = await t.app.inject({ url, headers: { ...headers, cookie: `__admin_session=${encodeURIComponent(cookieValue)}` } });
      expect(res.statusCode, cookieValue).toBe(401);
    }
    expect(verifySessionCookie(value, 'another-secret-another-secret-0123456789')).toBeNull();
    const { cookie: _cookie, ...withoutCookie } = headers;
    expect((await t.app.inject({ url, headers: withoutCookie })).statusCode).toBe(401);
  });

  it('opens nothing once the session has expired or was signed out', async () => {
    const expired = await adminSession();
    await t.app.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('userId', '=', expired.userId).execute();
    expect((await t.app.inject({ url: expired.url, headers: expired.headers })).statusCode).toBe(401);

    const signedOut = await adminSession();
    expect((await t.app.inject({ url: signedOut.url, headers: signedOut.headers })).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/identity/sign-out', headers: { ...signedOut.headers, origin: consoleOrigin(t.app) } });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ url: signedOut.url, headers: signedOut.headers });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'unauthorised' });
  });

  it('still refuses an X-Acting-User naming someone else, and accepts the session\'s own', async () => {
    const { headers, url, userId } = await adminSession();
    const res = await t.app.inject({ url, headers: { ...headers, 'x-acting-user': 'someone-else' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'acting_user_mismatch' });
    expect((await t.app.inject({ url, headers: { ...headers, 'x-acting-user': userId } })).statusCode).toBe(200);
  });

  it("gives an unverified address no access, and an admin nothing of another organisation (403)", async () => {
    const unverified = await adminSession({ verified: false });
    const refused = await t.app.inject({ url: unverified.url, headers: unverified.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'organisation_forbidden' });

    const admin = await adminSession();
    const other = await buildOrganisation(t.app.db);
    const elsewhere = await t.app.inject({ url: urlOf(other.id), headers: admin.headers });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toMatchObject({ code: 'organisation_forbidden' });
  });
});
