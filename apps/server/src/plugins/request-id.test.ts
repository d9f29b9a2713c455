import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, testEnv, type TestApp } from '../../test/helper.js';
import { loggerOptions } from './logger.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
const lines: string[] = [];
const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  // The server's own logger options (redaction, serializers), at info so request lines are written.
  t = await buildTestApp({}, { logger: { ...loggerOptions(testEnv(), false), level: 'info', stream } });
});
afterAll(() => t.close());
beforeEach(() => {
  lines.length = 0;
});

describe('request ids', () => {
  it("carries the proxy's X-Request-Id into the answer and every log line of the request", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'edge-7f3a9c.01' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('edge-7f3a9c.01');
    const requestLines = logged().filter((l) => l.req || l.res);
    expect(requestLines.length).toBeGreaterThanOrEqual(2);
    expect(requestLines.every((l) => l.reqId === 'edge-7f3a9c.01')).toBe(true);
  });

  it('makes a new id when the request has none, and names it in the answer', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/healthz' });
    const second = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with spaces', 'id with spaces'],
    ['two headers joined', 'abc, def'],
    ['with quotes and braces', '"}{"level":60'],
    ['empty', ''],
  ])('replaces an id that is %s', async (_, given) => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': given } });
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(logged().filter((l) => l.req).map((l) => l.reqId)).toEqual([res.headers['x-request-id']]);
  });

  it('names the id on error answers too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no-such-route', headers: { 'x-request-id': 'err-1', accept: 'application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe('err-1');
  });
});

describe('request log lines', () => {
  it('are JSON with the request id, and carry no password, token, cookie or authorisation header', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/identity/reset-password?token=SECRET-QUERY-TOKEN',
      headers: {
        'x-request-id': 'req-secrets-1',
        origin: 'http://localhost:3100',
        authorization: 'Bearer SECRET-BEARER',
        cookie: '__admin_session=SECRET-SESSION',
        'content-type': 'application/json',
      },
      payload: { newPassword: 'SECRET-PASSWORD', token: 'SECRET-BODY-TOKEN' },
    });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const parsed = logged();
    expect(parsed.filter((l) => l.req || l.res).every((l) => l.reqId === 'req-secrets-1')).toBe(true);
    const text = lines.join('\n');
    for (const secret of ['SECRET-QUERY-TOKEN', 'SECRET-BEARER', 'SECRET-SESSION', 'SECRET-PASSWORD', 'SECRET-BODY-TOKEN']) {
      expect(text).not.toContain(secret);
    }
  });
});
