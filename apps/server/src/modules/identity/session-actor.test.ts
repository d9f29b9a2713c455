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

async function adminSession() {
  const org = await buildOrganisation(t.app.db);
  const admin = await buildAdmin(t.app.db, { organisationId: org.id });
  const { userId, headers } = await signIn(t.app, { email: admin.email });
  const url = `/payments/v1/admin/organisations/${org.id}/members/teachers?page=1&pageSize=10`;
  return { userId, headers, url };
}

describe('the session behind request.actor', () => {
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
  });

  it('opens nothing once the session has expired or was signed out', async () => {
    const expired = await adminSession();
    await t.app.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('userId', '=', expired.userId).execute();
    expect((await t.app.inject({ url: expired.url, headers: expired.headers })).statusCode).toBe(401);

    const signedOut = await adminSession();
    expect((await t.app.inject({ url: signedOut.url, headers: signedOut.headers })).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/identity/sign-out', headers: { ...signedOut.headers, origin: consoleOrigin(t.app) } });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ url: signedOut.url, headers: signedOut.headers })).statusCode).toBe(401);
  });

  it('still refuses an X-Acting-User naming someone else', async () => {
    const { headers, url } = await adminSession();
    const res = await t.app.inject({ url, headers: { ...headers, 'x-acting-user': 'someone-else' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'acting_user_mismatch' });
  });
});
