import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.js';
import { drainThenClose } from './lifecycle.js';

describe('stopping a copy behind a load balancer', () => {
  let t: TestApp | undefined;
  // The test closes the app itself; the database is left to close.
  afterAll(async () => {
    await t?.app.close();
    await t?.database.close();
  });

  it('answers /readyz 503 while it drains, still serves requests, finishes those in flight, then stops listening', async () => {
    t = await buildTestApp({}, {
      beforeReady: (app) =>
        void app.get('/test-slow', async () => {
          await sleep(3500);
          return { done: true };
        }),
    });
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    expect((await fetch(`${address}/readyz`)).status).toBe(200);

    const slow = fetch(`${address}/test-slow`);
    await sleep(50);
    const stopped = drainThenClose(t.app, { drainMs: 3000 });

    // The balancer's health check sees the copy going away before it stops listening.
    const ready = await fetch(`${address}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining', database: t.database.kind });
    // A request that still arrives is served, and its connection is not kept for another one.
    const live = await fetch(`${address}/healthz`);
    expect(live.status).toBe(200);
    expect(live.headers.get('connection')).toBe('close');

    // The request in flight when the drain began outlives the drain and still gets its answer.
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ done: true });
    await stopped;
    await expect(fetch(`${address}/healthz`)).rejects.toThrow();
  }, 90_000);
});
