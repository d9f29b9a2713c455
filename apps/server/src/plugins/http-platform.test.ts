import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.js';

describe('HTTP platform', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(
      {
      PRODUCT_NAME: 'Bookmakers',
      PROVIDER_EMAIL_DOMAIN: 'Bookmakers.example',
      SALES_EMAIL: 'sales@bookmakers.example',
      HELP_URL: 'https://help.bookmakers.example/admins',
      DISTRICT_SSO_DOMAINS: 'Schools.district.example, students.district.example',
      CITY_GOVERNMENT_SUFFIXES: '.city.example.gov',
      CHAT_SUPPORT_PROVIDER: 'none',
      },
      { beforeReady: (app) => void app.post('/api/test-echo', async (request) => request.body) },
    );
  });
  afterAll(() => t?.close());

  it('answers liveness', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('sends security headers with a CSP the console can run under', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sends the same full set of security headers on every kind of answer, a 404 and a refusal included', async () => {
    const expected = {
      'content-security-policy': expect.stringContaining("object-src 'none'"),
      'cross-origin-opener-policy': 'same-origin-allow-popups',
      'cross-origin-resource-policy': 'same-site',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'same-origin',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    for (const request of [{ url: '/healthz' }, { url: '/api/v9/nothing' }, { url: '/api/console-config' }, { method: 'POST' as const, url: '/api/test-echo', payload: {} }]) {
      const res = await t.app.inject(request);
      expect(res.headers, request.url).toMatchObject(expected);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
      expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    }
  });

  it('compresses large responses for clients that accept it', async () => {
    const res = await t.app.inject({ url: '/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const doc = JSON.parse(gunzipSync(res.rawPayload).toString('utf8')) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths).toHaveProperty('/api/console-config');
  });

  it('serves the API documentation page at /docs', async () => {
    const res = await t.app.inject({ url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });

  it('keeps a JSON 404 for unknown API paths, even for a browser', async () => {
    for (const url of ['/api/v9/nothing/here/at-all', '/auth/nothing', '/graphql/x', '/rest/v1/none', '/identity/nothing']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', message: `No route for GET ${url}` });
    }
  });

  it('answers a malformed or empty JSON body with 400 and a readable message, never 500', async () => {
    for (const payload of ['{"name": ', 'not json', '']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test-echo',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3100' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_json' });
      expect(res.json().message).toMatch(/JSON/);
    }
    const ok = await t.app.inject({ method: 'POST', url: '/api/test-echo', headers: { origin: 'http://localhost:3100' }, payload: { name: 'x' } });
    expect(ok.json()).toEqual({ name: 'x' });
  });

  it('serves the console configuration from the environment without signing in', async () => {
    const res = await t.app.inject({ url: '/api/console-config' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      productName: 'Bookmakers',
      providerEmailDomain: 'bookmakers.example',
      salesEmail: 'sales@bookmakers.example',
      helpUrl: 'https://help.bookmakers.example/admins',
      communityUrl: 'https://community.quire.app',
      appUrl: 'https://app.quire.app',
      readerUrl: 'https://read.quire.app',
      districtSsoDomains: ['schools.district.example', 'students.district.example'],
      cityGovernmentSuffixes: ['.city.example.gov'],
      chatSupportProvider: null,
    });
  });

  it('is ready while the database answers and unavailable (503) once it is gone', async () => {
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: t.database.kind });
    await t.database.close();
    const gone = await t.app.inject({ url: '/readyz' });
    expect(gone.statusCode).toBe(503);
    expect(gone.json()).toEqual({ status: 'unavailable', database: t.database.kind });
  });
});
