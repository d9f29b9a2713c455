import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCustomTokenForUser } from '../src/modules/identity/custom-token.js';
import { TWO_STEP_LIMITS } from '../src/modules/two-step/two-step.service.js';
import { consoleOrigin, sessionCookieFrom, signIn, type SignedInHeaders } from './auth.js';
import { buildTestApp, type TestApp } from './helper.js';
import { SoftPasskey } from './passkey-authenticator.js';
import { orgWithAdmin } from './teachers.helpers.js';

/**
 * Passkeys (WebAuthn) as a person and an attacker would meet them, with a software authenticator written from the
 * specification (test/passkey-authenticator.ts), not the server's library.
 */

let t: TestApp;
let origin: string;
const rpId = 'localhost';
beforeAll(async () => {
  t = await buildTestApp({ PROVIDER_EMAIL_DOMAIN: 'quire.app', PRODUCT_NAME: 'Quire', PROVIDER_STAFF_TWO_STEP: 'required' });
  origin = consoleOrigin(t.app);
  TWO_STEP_LIMITS.perAddress.max = 1000;
});
afterAll(() => t.close());

const get = (url: string, headers: Partial<SignedInHeaders>) => t.app.inject({ method: 'GET', url, headers });
const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, headers: Partial<SignedInHeaders>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

const newPasskey = (overrides: { userVerified?: boolean } = {}) => new SoftPasskey({ origin: new URL(origin).origin, rpId, ...overrides });

/** Adds a passkey through the Security page's two calls. */
async function addPasskey(headers: SignedInHeaders, passkey: SoftPasskey, name = 'Work laptop') {
  const options = await send('POST', '/api/two-step/passkeys/options', headers);
  expect(options.statusCode, options.body).toBe(200);
  return send('POST', '/api/two-step/passkeys', headers, { name, response: passkey.create(options.json()) });
}

async function newSignIn(userId: string): Promise<SignedInHeaders> {
  const token = await issueCustomTokenForUser(t.app.auth, userId, { ipAddress: '127.0.0.1', userAgent: 'quire-tests' });
  const response = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin }, payload: { token } });
  const session = sessionCookieFrom(response.headers['set-cookie']);
  if (!session) throw new Error(response.body);
  return { cookie: session, 'x-acting-user': userId, origin };
}

async function mailsTo(email: string) {
  await t.app.mail.waitForIdle();
  return t.app.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('recipient', '=', email).execute();
}

async function auditOf(userId: string) {
  const rows = await t.app.db.selectFrom('audit_events').select(['action', 'details', 'target_ids']).where('action', 'like', 'security.two_step.%').orderBy('id').execute();
  return rows.filter((r) => r.target_ids.includes(userId)).map((r) => ({ action: r.action, method: (r.details as { method?: string }).method }));
}

describe('passkeys on the Security page', () => {
  it('the first passkey turns 2-step verification on (recovery codes, older sessions end); more can be added, renamed and removed; each change recorded and mailed', async () => {
    const a = await orgWithAdmin(t.app);
    const older = await newSignIn(a.userId);
    const first = newPasskey();
    const added = await addPasskey(a.headers, first, 'Work laptop');
    expect(added.statusCode, added.body).toBe(200);
    const body = added.json<{ passkey: { id: string; name: string; createdAt: string; lastUsedAt: null }; recoveryCodes: string[] }>();
    expect(body.passkey).toMatchObject({ id: first.id, name: 'Work laptop', lastUsedAt: null });
    expect(body.recoveryCodes).toHaveLength(10);
    // This session passed (enrolment); the older one ended.
    expect((await get('/api/two-step', a.headers)).json()).toMatchObject({ enabled: true, recoveryCodesRemaining: 10, passkeys: [{ id: first.id, name: 'Work laptop' }] });
    expect((await get('/api/two-step', older)).statusCode).toBe(401);

    const second = newPasskey();
    const again = await addPasskey(a.headers, second, 'Phone');
    expect(again.json()).toMatchObject({ passkey: { name: 'Phone' }, recoveryCodes: null });

    const renamed = await send('PATCH', `/api/two-step/passkeys/${second.id}`, a.headers, { name: '  Pixel phone ' });
    expect(renamed.json()).toMatchObject({ id: second.id, name: 'Pixel phone' });
    expect((await send('PATCH', `/api/two-step/passkeys/${second.id}`, a.headers, { name: '   ' })).statusCode).toBe(400);

    expect((await send('DELETE', `/api/two-step/passkeys/${first.id}`, a.headers)).statusCode).toBe(200);
    // The only second factor left is not removed this way: turning 2-step verification off asks for proof.
    const last = await send('DELETE', `/api/two-step/passkeys/${second.id}`, a.headers);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'passkey_last_method' });
    expect((await get('/api/two-step', a.headers)).json()).toMatchObject({ enabled: true, passkeys: [{ name: 'Pixel phone' }] });

    expect(await auditOf(a.userId)).toEqual([
      { action: 'security.two_step.enabled', method: 'passkey' },
      { action: 'security.two_step.method_added', method: 'passkey' },
      { action: 'security.two_step.method_added', method: 'passkey' },
      { action: 'security.two_step.method_renamed', method: 'passkey' },
      { action: 'security.two_step.method_removed', method: 'passkey' },
    ]);
    expect((await mailsTo(a.email)).map((m) => m.subject).sort()).toEqual([
      '2-step verification was turned on — Quire',
      'A passkey was added to your account — Quire',
      'A passkey was removed from your account — Quire',
      'A passkey was renamed on your account — Quire',
    ]);
    // The Admin list shows 'passkey'.
    const admins = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: a.headers,
      payload: { query: `{ getAdmins(orgId: "${a.orgId}", pageSize: 10) { admins { email twoStep } } }` },
    });
    expect(admins.json<{ data: { getAdmins: { admins: Array<{ email: string; twoStep: string }> } } }>().data.getAdmins.admins).toContainEqual({ email: a.email, twoStep: 'passkey' });
  });

  it('refuses a passkey made for another origin, a used or foreign challenge, and a passkey already added; nothing changes', async () => {
    const a = await orgWithAdmin(t.app);
    const passkey = newPasskey();
    const options = (await send('POST', '/api/two-step/passkeys/options', a.headers)).json<{ challenge: string }>();
    const foreign = await send('POST', '/api/two-step/passkeys', a.headers, { name: 'Evil', response: passkey.create(options, 'https://evil.example') });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 'passkey_refused' });
    // The challenge was used up by the refused answer.
    const reused = await send('POST', '/api/two-step/passkeys', a.headers, { name: 'Laptop', response: passkey.create(options) });
    expect(reused.json()).toMatchObject({ code: 'passkey_challenge_expired' });
    // Another person's challenge does not work for this one.
    const b = await orgWithAdmin(t.app);
    const theirs = (await send('POST', '/api/two-step/passkeys/options', b.headers)).json<{ challenge: string }>();
    expect((await send('POST', '/api/two-step/passkeys', a.headers, { name: 'Laptop', response: passkey.create(theirs) })).json()).toMatchObject({ code: 'passkey_challenge_expired' });
    // Malformed answers are 400, never 500.
    expect((await send('POST', '/api/two-step/passkeys', a.headers, { name: 'x', response: { id: '!!', rawId: 'x', type: 'public-key', response: {} } })).statusCode).toBe(400);
    expect((await send('POST', '/api/two-step/passkeys', a.headers, { name: 'x', response: { ...passkey.create(options), response: { clientDataJSON: 'e30', attestationObject: 'AAAA' } } })).statusCode).toBe(400);
    expect((await get('/api/two-step', a.headers)).json()).toMatchObject({ enabled: false, passkeys: [] });

    expect((await addPasskey(a.headers, passkey)).statusCode).toBe(200);
    // The same credential again, for anyone, is refused.
    expect((await addPasskey(b.headers, passkey)).json()).toMatchObject({ code: 'passkey_refused' });
    // Someone else's passkey cannot be renamed or removed.
    expect((await send('PATCH', `/api/two-step/passkeys/${passkey.id}`, b.headers, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await send('DELETE', `/api/two-step/passkeys/${passkey.id}`, b.headers)).statusCode).toBe(404);
  });
});

describe('a passkey as the second step and as a sign-in of its own', () => {
  async function enrolled() {
    const a = await orgWithAdmin(t.app);
    const passkey = newPasskey();
    expect((await addPasskey(a.headers, passkey)).statusCode).toBe(200);
    return { ...a, passkey };
  }

  it('passes the second step once per challenge, records it, and refuses a replayed or cloned signature', async () => {
    const a = await enrolled();
    const pending = await newSignIn(a.userId);
    expect((await get('/api/two-step', pending)).json()).toMatchObject({ code: 'two_step_required' });
    const options = await send('POST', '/api/two-step/verify/passkey-options', pending);
    expect(options.json<{ allowCredentials: Array<{ id: string }> }>().allowCredentials.map((c) => c.id)).toEqual([a.passkey.id]);
    const answer = a.passkey.get(options.json());
    const passed = await send('POST', '/api/two-step/verify/passkey', pending, { response: answer });
    expect(passed.json()).toMatchObject({ method: 'passkey' });
    expect((await get('/api/two-step', pending)).statusCode).toBe(200);
    expect((await get('/api/two-step', pending)).json<{ passkeys: Array<{ lastUsedAt: string | null }> }>().passkeys[0]?.lastUsedAt).not.toBeNull();

    // The same answer again (another pending session) is refused: its challenge was used.
    const other = await newSignIn(a.userId);
    expect((await send('POST', '/api/two-step/verify/passkey', other, { response: answer })).json()).toMatchObject({ code: 'passkey_challenge_expired' });
    // A signature whose counter did not move on (a cloned authenticator) is refused.
    const fresh = (await send('POST', '/api/two-step/verify/passkey-options', other)).json<{ challenge: string }>();
    expect((await send('POST', '/api/two-step/verify/passkey', other, { response: a.passkey.get(fresh, { counter: a.passkey.counter }) })).json()).toMatchObject({ code: 'passkey_refused' });
    // Another origin's signature is refused too.
    const fresh2 = (await send('POST', '/api/two-step/verify/passkey-options', other)).json<{ challenge: string }>();
    expect((await send('POST', '/api/two-step/verify/passkey', other, { response: a.passkey.get(fresh2, { origin: 'https://evil.example' }) })).json()).toMatchObject({ code: 'passkey_refused' });
    expect((await get('/api/two-step', other)).statusCode).toBe(401);
    expect((await auditOf(a.userId)).filter((r) => r.action === 'security.two_step.signed_in')).toEqual([{ action: 'security.two_step.signed_in', method: 'passkey' }]);
  });

  it('signs in without a password (both steps) only with a verified user, and answers a custom token for a usable session', async () => {
    const a = await enrolled();
    const options = await send('POST', '/auth/passkey/options', { origin });
    expect(options.statusCode).toBe(200);
    expect(options.json()).toMatchObject({ userVerification: 'required', rpId });
    const signedIn = await send('POST', '/auth/passkey', { origin }, { response: a.passkey.get(options.json()) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { token } = signedIn.json<{ token: string }>();
    const verify = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin }, payload: { token } });
    expect(verify.json()).not.toHaveProperty('twoStep');
    const cookie = sessionCookieFrom(verify.headers['set-cookie'])!;
    const headers = { cookie, 'x-acting-user': a.userId, origin };
    expect((await get('/api/two-step', headers)).statusCode).toBe(200);
    expect((await get('/identity/token', headers)).statusCode).toBe(200);

    // Without user verification, a passkey alone is only one step.
    const unverified = newPasskey({ userVerified: false });
    const b = await orgWithAdmin(t.app);
    expect((await addPasskey(b.headers, unverified)).statusCode).toBe(200);
    const options2 = (await send('POST', '/auth/passkey/options', { origin })).json<{ challenge: string }>();
    expect((await send('POST', '/auth/passkey', { origin }, { response: unverified.get(options2) })).json()).toMatchObject({ code: 'passkey_refused' });
    // An unknown passkey, and garbage, are refused with 400.
    const options3 = (await send('POST', '/auth/passkey/options', { origin })).json<{ challenge: string }>();
    expect((await send('POST', '/auth/passkey', { origin }, { response: newPasskey().get(options3) })).json()).toMatchObject({ code: 'passkey_refused' });
    expect((await send('POST', '/auth/passkey', { origin }, { response: { nope: true } })).statusCode).toBe(400);
  });

  it('an organisation requiring 2-step verification accepts a passkey: the admin held at enrolment adds one and goes on', async () => {
    const a = await orgWithAdmin(t.app);
    await t.app.db.updateTable('organisations').set({ require_two_step_admins: true }).where('id', '=', a.orgId).execute();
    expect((await get(`/api/organisations/${a.orgId}/two-step-policy`, a.headers)).json()).toMatchObject({ code: 'two_step_enrolment_required' });
    expect((await addPasskey(a.headers, newPasskey())).statusCode).toBe(200);
    expect((await get(`/api/organisations/${a.orgId}/two-step-policy`, a.headers)).statusCode).toBe(200);
    // Turning it off is refused while the organisation requires it.
    expect((await get('/api/two-step', a.headers)).json()).toMatchObject({ requiredBy: 'organisation' });
  });

  it('turning 2-step verification off (with the password) removes the passkeys too', async () => {
    const { userId, headers } = await signIn(t.app, { email: `pk-off-${Date.now()}@school.test`, password: 'correct-horse-1' });
    const passkey = newPasskey();
    expect((await addPasskey(headers, passkey)).statusCode).toBe(200);
    expect((await send('POST', '/api/two-step/disable', headers, { password: 'correct-horse-1' })).json()).toEqual({ enabled: false });
    expect((await get('/api/two-step', headers)).json()).toMatchObject({ enabled: false, passkeys: [] });
    const options = (await send('POST', '/auth/passkey/options', { origin })).json<{ challenge: string }>();
    expect((await send('POST', '/auth/passkey', { origin }, { response: passkey.get(options) })).json()).toMatchObject({ code: 'passkey_refused' });
    // This person administers no organisation: the change is kept in their own access log, not in an audit log.
    expect(await auditOf(userId)).toEqual([]);
    const log = await t.app.db.selectFrom('access_log').select('event').where('user_id', '=', userId).where('event', 'like', 'security.two_step.%').orderBy('id').execute();
    expect(log.map((row) => row.event)).toEqual(['security.two_step.enabled', 'security.two_step.method_added', 'security.two_step.method_removed', 'security.two_step.disabled']);
  });
});
