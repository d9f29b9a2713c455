import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.js';
import { signIn } from '../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../test/factories.js';
import { appForFile, formBody as form, tryWrongPasswords, uniqueEmail as unique } from '../../test/file-app.js';

/** The edge of the server: proxy headers, control characters, one error handler, the development and same-origin checks. */
const t = appForFile({}, { timeout: 180_000 });

describe('control characters are refused at the edge (400)', () => {
  it('refuses a NUL byte on the signed-out routes', async () => {
    const cases = [
      { method: 'POST' as const, url: '/auth/email', headers: { origin: t.origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ email: 'a\u0000b@x.org', password: 'secret-1' }) },
      { method: 'POST' as const, url: '/api/resend-email/a%00b%40x.org', headers: { origin: t.origin } },
      { method: 'POST' as const, url: '/auth/allowed-as-teacher', headers: { origin: t.origin }, payload: { email: 'a\u0000b@x.org' } },
      { method: 'GET' as const, url: '/api/users/v2/providers/a%00b%40x.org' },
      { method: 'POST' as const, url: '/identity/sign-in/email', headers: { origin: t.origin }, payload: { email: 'a\u0000b@x.org', password: 'secret-1' } },
      { method: 'GET' as const, url: '/healthz?x=%00' },
    ];
    for (const request of cases) {
      const response = await t.app.inject(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(400);
      expect(response.json().code, request.url).toBe('invalid_characters');
    }
  });

  it('refuses search=%00 on the CSV export instead of cutting the file short', async () => {
    const org = await buildOrganisation(t.app.db);
    const admin = await buildAdmin(t.app.db, { organisationId: org.id });
    await buildTeacher(t.app.db, { organisationId: org.id });
    const { headers } = await signIn(t.app, { email: admin.email });
    const response = await t.app.inject({ url: `/payments/v1/admin/organisations/${org.id}/members/teachers/export.csv?search=%00`, headers });
    expect(response.statusCode).toBe(400);
    const fine = await t.app.inject({ url: `/payments/v1/admin/organisations/${org.id}/members/teachers/export.csv?search=teacher`, headers });
    expect(fine.statusCode).toBe(200);
  });

  it('keeps ordinary text, tabs and new lines', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/email',
      headers: { origin: t.origin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ email: unique('plain'), password: 'tab\there\nline é ✓' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('auth/user-not-found');
  });
});

describe('same-origin requests', () => {
  it('accepts a request whose Origin is its own Host (opened by address instead of PUBLIC_URL)', async () => {
    for (const host of ['127.0.0.1:3000', 'quire.lan', '192.168.1.20:8080']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/email',
        headers: { host, origin: `http://${host}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ email: unique('same'), password: 'secret-1' }),
      });
      expect(response.statusCode, host).toBe(400);
      expect(response.json().code).toBe('auth/user-not-found');
    }
  });

  it('still refuses a cross-site Origin, and a same-host Origin with another port', async () => {
    for (const [host, from] of [
      ['127.0.0.1:3000', 'https://evil.example'],
      ['127.0.0.1:3000', 'http://127.0.0.1:4000'],
      ['quire.lan', 'null'],
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/auth/email',
        headers: { host, origin: from, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ email: unique('cross'), password: 'secret-1' }),
      });
      expect(response.statusCode, `${from} → ${host}`).toBe(403);
    }
  });
});

describe('development mode', () => {
  it('does not trust http://localhost:5173 unless configured', async () => {
    const dev = await buildTestApp({ NODE_ENV: 'development', PUBLIC_URL: 'https://quire.example-school.org' });
    try {
      const signInFromVite = (host: string) =>
        dev.app.inject({
          method: 'POST',
          url: '/auth/email',
          headers: { host, origin: 'http://localhost:5173', 'content-type': 'application/x-www-form-urlencoded' },
          payload: form({ email: unique('dev'), password: 'secret-1' }),
        });
      expect((await signInFromVite('quire.example-school.org')).statusCode).toBe(403);
      // Vite's proxy keeps the browser's Host, so the development console is same-origin.
      expect((await signInFromVite('localhost:5173')).statusCode).toBe(400);
    } finally {
      await dev.close();
    }
  });
});

describe('proxy headers', () => {
  it('ignores X-Forwarded-For from a client that is not a configured proxy', async () => {
    const responses = await tryWrongPasswords(unique('xff'), 12, (i) => ({ app: t.app, forwardedFor: `203.0.113.${i + 1}` }));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.slice(10)).toEqual([429, 429]);
  }, 120_000);

  it('uses X-Forwarded-For from a proxy named in TRUST_PROXY', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const responses = await tryWrongPasswords(unique('xff-proxy'), 11, (i) => ({ app: proxied.app, forwardedFor: `203.0.113.${i + 1}` }));
      const statuses = responses.map((response) => response.statusCode);
      // Each address is counted on its own: the per-address limit is not reached.
      expect(statuses.every((s) => s === 400)).toBe(true);
    } finally {
      await proxied.close();
    }
  }, 120_000);
});

describe('one error handler for every route', () => {
  it('a database outage under /identity answers the generic error, without internals', async () => {
    const broken = await buildTestApp();
    try {
      const { headers } = await signIn(broken.app, { email: unique('outage') });
      await broken.database.close();
      for (const url of ['/identity/get-session', '/identity/token', '/auth/methods']) {
        const response = await broken.app.inject({ url, headers });
        expect(response.statusCode, url).toBeGreaterThanOrEqual(500);
        expect(response.json(), url).toEqual({ code: 'internal_error', message: 'Something went wrong' });
      }
    } finally {
      await broken.close();
    }
  });
});
