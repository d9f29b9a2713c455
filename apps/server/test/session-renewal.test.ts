import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE_NAME } from '@quire/core';
import { buildTestApp, type TestApp } from './helper.js';
import { signIn } from './auth.js';

// The 45-minute token refresh renews the one-hour __admin_session while the admin is active.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const tokenOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1] ?? '').split('.')[0] ?? '';

describe('session renewal', () => {
  it('the token refresh 45 minutes in sends a renewed one-hour cookie and extends the session', async () => {
    const { headers } = await signIn(t.app, { email: `renew-${Date.now()}@school.org` });
    const token = tokenOf(headers.cookie);
    // As if the session had been opened 45 minutes ago.
    const opened = new Date(Date.now() - 45 * 60_000);
    await t.app.db
      .updateTable('session')
      .set({ createdAt: opened, updatedAt: opened, expiresAt: new Date(opened.getTime() + 3600_000) })
      .where('token', '=', token)
      .execute();

    const refresh = await t.app.inject({ method: 'GET', url: '/identity/token', headers: { cookie: headers.cookie } });
    expect(refresh.statusCode).toBe(200);
    const setCookie = [refresh.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
    expect(setCookie).toMatch(/Max-Age=3600/i);
    const row = await t.app.db.selectFrom('session').select('expiresAt').where('token', '=', token).executeTakeFirstOrThrow();
    expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
  });

  it('a session that has ended is not brought back by the refresh', async () => {
    const { headers } = await signIn(t.app, { email: `ended-${Date.now()}@school.org` });
    const token = tokenOf(headers.cookie);
    await t.app.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('token', '=', token).execute();
    const refresh = await t.app.inject({ method: 'GET', url: '/identity/token', headers: { cookie: headers.cookie } });
    expect(refresh.statusCode).toBe(401);
  });
});
