import { describe, expect, it } from 'vitest';
import { buildAdmin } from './factories.js';
import { signIn } from './auth.js';
import { appForFile } from './file-app.js';

// When every connection of the database pool stays busy longer than the pool waits for one, the request is answered
// 503 'server_busy' with a Retry-After (the client tries again shortly), never a 500.

const POOL_TIMEOUT_MS = 300;
const t = appForFile(
  { DATABASE_POOL_SIZE: 1, DATABASE_POOL_TIMEOUT_MS: POOL_TIMEOUT_MS },
  {
    beforeReady: (app) => {
      // pg-pool's own error when no connection frees up in time, and another error whose text merely resembles it.
      app.get('/test-only/pool-timeout', async () => {
        throw new Error('timeout exceeded when trying to connect');
      });
      app.get('/test-only/other-timeout', async () => {
        throw new Error('timeout exceeded');
      });
    },
  },
);

describe('a request that finds no free database connection in time', () => {
  it("answers pg-pool's connection timeout with 503 server_busy and a Retry-After, through the one error handler", async () => {
    const busy = await t.app.inject({ method: 'GET', url: '/test-only/pool-timeout' });
    expect(busy.statusCode).toBe(503);
    expect(busy.json()).toEqual({ code: 'server_busy', message: 'The server is busy, please try again in a moment.' });
    expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
    // Only that error: anything else unexpected stays a 500 without Retry-After.
    const other = await t.app.inject({ method: 'GET', url: '/test-only/other-timeout' });
    expect(other.statusCode).toBe(500);
    expect(other.json()).toMatchObject({ code: 'internal_error' });
    expect(other.headers['retry-after']).toBeUndefined();
  });

  // PGlite has no pool (one connection, every statement queued behind the last): the real pool is PostgreSQL's.
  it.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL, a pool of 1 held busy: a page of teachers is refused 503, then served once the connection is free', async () => {
    const admin = await buildAdmin(t.app.db);
    const { headers } = await signIn(t.app, { email: admin.email });
    const url = `/payments/v1/admin/organisations/${admin.organisation_id}/members/teachers`;
    expect((await t.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
    const held = await t.database.pool!.connect();
    let answer;
    try {
      const started = performance.now();
      answer = await t.app.inject({ method: 'GET', url, headers });
      // It waited for the pool's timeout, not longer.
      expect(performance.now() - started).toBeGreaterThanOrEqual(POOL_TIMEOUT_MS - 50);
    } finally {
      held.release();
    }
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ code: 'server_busy' });
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
  });
});
