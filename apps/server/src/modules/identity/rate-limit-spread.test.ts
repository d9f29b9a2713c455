import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { consoleOrigin, signIn } from '../../../test/auth.js';
import { ACCOUNT_LIMITS } from './rate-limit.js';

/**
 * Limits per account across addresses and per address across accounts. The app trusts
 * X-Forwarded-For from the test client (TRUST_PROXY=loopback), so each request can come "from" anywhere.
 */
let t: TestApp;
let origin: string;
const production = structuredClone(ACCOUNT_LIMITS);
beforeAll(async () => {
  // Small budgets keep the test fast (every password try costs a 128 MiB scrypt); the logic is the same.
  ACCOUNT_LIMITS.passwordPerAccount.max = 4;
  ACCOUNT_LIMITS.passwordPerAddress.max = 5;
  ACCOUNT_LIMITS.lookupPerAddress.max = 8;
  ACCOUNT_LIMITS.mailPerAddress.max = 4;
  t = await buildTestApp({ TRUST_PROXY: 'loopback' });
  origin = consoleOrigin(t.app);
}, 180_000);
afterAll(async () => {
  Object.assign(ACCOUNT_LIMITS, production);
  await t?.close();
});

it('the production budgets stop the attacks the issue measured (100 sprayed e-mails, 60 look-ups)', () => {
  expect(production.passwordPerAddress.max).toBeLessThan(100);
  expect(production.lookupPerAddress.max).toBeLessThan(60);
  expect(production.passwordPerAccount.max).toBeLessThan(100);
});

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
let addressSeq = 0;
const newAddress = () => `198.51.${Math.floor(addressSeq / 250)}.${(addressSeq++ % 250) + 1}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function tryPassword(email: string, password: string, from: string) {
  return t.app.inject({
    method: 'POST',
    url: '/auth/email',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
    payload: form({ email, password }),
  });
}

/** `count` requests one after the other: their statuses, and the body of the last one refused with 429. */
async function burst(count: number, send: (i: number) => Promise<LightMyRequestResponse>) {
  const statuses: number[] = [];
  let refused: { code: string; message: string } | null = null;
  for (let i = 0; i < count; i++) {
    const response = await send(i);
    statuses.push(response.statusCode);
    if (response.statusCode === 429) refused = response.json();
  }
  return { statuses, refused };
}

describe('per account, across addresses', () => {
  it('stops guessing one account from rotating addresses, and the right password then waits too', async () => {
    const email = unique('victim');
    await signIn(t.app, { email, password: 'right-password' });
    const { statuses } = await burst(ACCOUNT_LIMITS.passwordPerAccount.max + 2, (i) => tryPassword(email, `wrong-${i}`, newAddress()));
    expect(statuses.slice(0, ACCOUNT_LIMITS.passwordPerAccount.max).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    const right = await tryPassword(email, 'right-password', newAddress());
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({
      code: 'auth/too-many-requests',
      message: 'You have entered an incorrect password too many times. Please try again in a few minutes.',
    });
  }, 300_000);

  it('counts only failures: signing in correctly again and again is never limited', async () => {
    const email = unique('regular');
    await signIn(t.app, { email, password: 'right-password' });
    for (let i = 0; i < ACCOUNT_LIMITS.passwordPerAccount.max + 2; i++) {
      expect((await tryPassword(email, 'right-password', newAddress())).statusCode).toBe(200);
    }
  }, 300_000);
});

describe('per address, across accounts', () => {
  it('stops password spraying: many e-mails from one address', async () => {
    const from = newAddress();
    const { statuses } = await burst(ACCOUNT_LIMITS.passwordPerAddress.max + 2, (i) => tryPassword(unique(`spray${i}`), 'Summer2024!', from));
    expect(statuses.slice(0, ACCOUNT_LIMITS.passwordPerAddress.max).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // Another address is not affected.
    expect((await tryPassword(unique('other'), 'x-password', newAddress())).statusCode).toBe(400);
  }, 300_000);

  it('stops account discovery through provider look-ups, with a message that does not mention passwords', async () => {
    const from = newAddress();
    const { statuses, refused: last } = await burst(ACCOUNT_LIMITS.lookupPerAddress.max + 2, (i) =>
      t.app.inject({ url: `/api/users/v2/providers/${encodeURIComponent(unique(`who${i}`))}`, headers: { 'x-forwarded-for': from } }),
    );
    expect(statuses.slice(0, ACCOUNT_LIMITS.lookupPerAddress.max).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    expect(last?.code).toBe('too_many_requests');
    expect(last?.message).not.toMatch(/password/i);
    // allowed-as-teacher discovers accounts too and shares the budget.
    const allowed = await t.app.inject({ method: 'POST', url: '/auth/allowed-as-teacher', headers: { origin, 'x-forwarded-for': from }, payload: { email: unique('who') } });
    expect(allowed.statusCode).toBe(429);
  }, 120_000);

  it('limits recovery mail without the password message', async () => {
    const from = newAddress();
    const { statuses, refused: last } = await burst(ACCOUNT_LIMITS.mailPerAddress.max + 1, (i) =>
      t.app.inject({ method: 'POST', url: '/identity/request-password-reset', headers: { origin, 'x-forwarded-for': from }, payload: { email: unique(`reset${i}`) } }),
    );
    expect(statuses.at(-1)).toBe(429);
    expect(last?.code).toBe('too_many_requests');
    expect(last?.message).not.toMatch(/password/i);
  }, 120_000);
});
