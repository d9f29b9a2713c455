import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCustomTokenForUser } from '../src/modules/identity/custom-token.js';
import { TWO_STEP_LIMITS } from '../src/modules/two-step/two-step.service.js';
import { consoleOrigin, sessionCookieFrom, signIn, type SignedInHeaders } from './auth.js';
import { buildAdmin, buildOrganisation } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql, orgPath, orgWithAdmin } from './teachers.helpers.js';

/**
 * 2-step verification as a person and an attacker would meet it, with authenticator codes computed by Debian's
 * oathtool (a TOTP implementation the server does not use; .ci/run installs it).
 */
const OATHTOOL = '/usr/bin/oathtool';
const available = existsSync(OATHTOOL);
if (!available && process.env.CI) throw new Error('oathtool is missing: .ci/run installs it (apt-get install oathtool)');

/** The code oathtool computes for the Base32 secret, `offsetSteps` 30-second steps from now. */
function oathtool(secret: string, offsetSteps = 0): string {
  const seconds = Math.floor(Date.now() / 1000) + offsetSteps * 30;
  return execFileSync(OATHTOOL, ['--totp', '-b', secret, `--now=@${seconds}`], { encoding: 'utf8' }).trim();
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PROVIDER_EMAIL_DOMAIN: 'quire.app', PRODUCT_NAME: 'Quire', PROVIDER_STAFF_TWO_STEP: 'required' });
  // Every request here comes from one address: its own budget is tested on its own (below).
  TWO_STEP_LIMITS.perAddress.max = 1000;
});
afterAll(() => t.close());

const get = (url: string, headers: SignedInHeaders) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: SignedInHeaders, payload: unknown = {}) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });

/** Turns 2-step verification on for a signed-in person; answers the secret and the recovery codes. */
async function enrol(headers: SignedInHeaders): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await post('/api/two-step/authenticator', headers);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<{ secret: string }>();
  const confirmed = await post('/api/two-step/authenticator/confirm', headers, { code: oathtool(secret) });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

/** A new sign-in of the user (as the console's custom-token sign-in), optionally from a browser holding `cookie`. */
async function newSignIn(userId: string, cookie?: string): Promise<{ headers: SignedInHeaders; body: Record<string, unknown> }> {
  const token = await issueCustomTokenForUser(t.app.auth, userId, { ipAddress: '127.0.0.1', userAgent: 'quire-tests' });
  const origin = consoleOrigin(t.app);
  const response = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin, ...(cookie ? { cookie } : {}) }, payload: { token } });
  const session = sessionCookieFrom(response.headers['set-cookie']);
  if (!session) throw new Error(response.body);
  return { headers: { cookie: session, 'x-acting-user': userId, origin }, body: response.json() };
}

async function mailsTo(email: string) {
  await t.app.mail.waitForIdle();
  return t.app.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('recipient', '=', email).execute();
}

async function auditRows(userId: string) {
  const rows = await t.app.db.selectFrom('audit_events').select(['action', 'organisation_id', 'target_ids']).where('action', 'like', 'security.two_step.%').orderBy('id').execute();
  return rows.filter((r) => r.target_ids.includes(userId));
}

/** The error code of a REST answer, or of a GraphQL answer refused before it ran. */
function codeOf(response: { json(): unknown }): unknown {
  const body = response.json() as { code?: string; errors?: Array<{ extensions?: { code?: string } }> };
  return body.code ?? body.errors?.[0]?.extensions?.code;
}

describe.skipIf(!available)('2-step verification with an authenticator app (codes from oathtool)', () => {
  it('is switched on only by a right first code; recovery codes are shown once and stored as hashes; older sessions end; mailed and recorded', async () => {
    const a = await orgWithAdmin(t.app);
    const older = await newSignIn(a.userId);
    const setup = await post('/api/two-step/authenticator', a.headers);
    const { secret, uri, qrCodeSvg } = setup.json<{ secret: string; uri: string; qrCodeSvg: string }>();
    // SHA-1, 6 digits and 30 seconds are the URI format's defaults, so the URI leaves them out.
    expect(uri).toBe(`otpauth://totp/Quire:${encodeURIComponent(a.email)}?secret=${secret}&issuer=Quire`);
    expect(qrCodeSvg).toMatch(/^<svg/);

    const wrong = await post('/api/two-step/authenticator/confirm', a.headers, { code: oathtool(secret, 3) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('two_step_code_wrong');
    expect((await get('/api/two-step', a.headers)).json().enabled).toBe(false);
    const malformed = await post('/api/two-step/authenticator/confirm', a.headers, { code: '12a' });
    expect(malformed.json().code).toBe('two_step_code_malformed');

    const confirmed = await post('/api/two-step/authenticator/confirm', a.headers, { code: oathtool(secret) });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json<{ recoveryCodes: string[] }>();
    expect(recoveryCodes).toHaveLength(10);
    const stored = await t.app.db.selectFrom('two_step_recovery_codes').select('code_hash').where('user_id', '=', a.userId).execute();
    expect(stored.map((r) => r.code_hash.toString('utf8')).join()).not.toContain(recoveryCodes[0]!.slice(0, 5));
    const factor = await t.app.db.selectFrom('two_step_factors').select('totp_secret').where('user_id', '=', a.userId).executeTakeFirstOrThrow();
    expect(factor.totp_secret).not.toContain(secret);

    // This session goes on; the one from before the change has ended.
    expect((await get('/api/two-step', a.headers)).json()).toMatchObject({ enabled: true, recoveryCodesRemaining: 10 });
    expect((await get('/api/two-step', older.headers)).statusCode).toBe(401);
    expect((await post('/api/two-step/authenticator/confirm', a.headers, { code: oathtool(secret) })).json().code).toBe('two_step_already_on');

    expect((await mailsTo(a.email)).map((m) => m.subject)).toContain('2-step verification was turned on — Quire');
    expect((await auditRows(a.userId)).map((r) => [r.action, r.organisation_id])).toEqual([
      ['security.two_step.enabled', a.orgId],
      ['security.two_step.method_added', a.orgId],
    ]);
  });

  it('a new sign-in reaches no data until its second step, on REST, GraphQL, the ID token and the Teachers list alike', async () => {
    const a = await orgWithAdmin(t.app);
    const { secret } = await enrol(a.headers);
    const pending = await newSignIn(a.userId);
    expect(pending.body.twoStep).toBe('second-step');
    expect((await get('/identity/get-session', pending.headers)).json().twoStep).toBe('second-step');
    for (const url of ['/api/two-step', '/identity/token', `${orgPath(a.orgId)}/members/teachers`, `/api/organisations/${a.orgId}/settings`]) {
      const response = await get(url, pending.headers);
      expect(response.statusCode, url).toBe(401);
    }
    const gql = await t.app.inject({ method: 'POST', url: '/graphql', headers: pending.headers, payload: { query: '{ getOrganisations { id } }' } });
    expect(gql.statusCode).toBe(401);
    expect(codeOf(gql)).toBe('two_step_required');
    expect((await post('/payments/v1/admin/auth', pending.headers)).statusCode).toBe(401);

    const code = oathtool(secret, 1);
    const passed = await post('/api/two-step/verify', pending.headers, { code });
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json()).toEqual({ method: 'totp', recoveryCodesRemaining: 10 });
    expect((await get(`${orgPath(a.orgId)}/members/teachers`, pending.headers)).statusCode).toBe(200);
    expect((await graphql(t.app, pending.headers, '{ getOrganisations { id } }')).errors).toBeUndefined();
    expect((await auditRows(a.userId)).map((r) => r.action)).toContain('security.two_step.signed_in');

    // The same code never works twice (RFC 6238 section 5.2), nor a code of an earlier step.
    const again = await newSignIn(a.userId);
    expect((await post('/api/two-step/verify', again.headers, { code })).json().code).toBe('two_step_code_wrong');
    expect((await post('/api/two-step/verify', again.headers, { code: oathtool(secret) })).json().code).toBe('two_step_code_wrong');
    // Two steps away is too far.
    expect((await post('/api/two-step/verify', again.headers, { code: oathtool(secret, 3) })).json().code).toBe('two_step_code_wrong');
  });

  it('accepts a code of the step before (a slow clock) once', async () => {
    const a = await orgWithAdmin(t.app);
    const { secret } = await enrol(a.headers);
    // The enrolment used the current step: a fresh person's previous-step code is tried on a new factor instead.
    await t.app.db.updateTable('two_step_factors').set({ last_totp_step: null }).where('user_id', '=', a.userId).execute();
    const pending = await newSignIn(a.userId);
    expect((await post('/api/two-step/verify', pending.headers, { code: oathtool(secret, -1) })).statusCode).toBe(200);
  });

  it('a recovery code works once, not twice', async () => {
    const a = await orgWithAdmin(t.app);
    const { recoveryCodes } = await enrol(a.headers);
    const first = await newSignIn(a.userId);
    const used = await post('/api/two-step/verify', first.headers, { code: recoveryCodes[3]!.toUpperCase() });
    expect(used.json()).toEqual({ method: 'recovery_code', recoveryCodesRemaining: 9 });
    const second = await newSignIn(a.userId);
    expect((await post('/api/two-step/verify', second.headers, { code: recoveryCodes[3] })).json().code).toBe('two_step_code_wrong');
    expect((await get('/api/two-step', first.headers)).json().recoveryCodesRemaining).toBe(9);
  });

  it('wrong codes are limited per account: five, then a wait the answer states, even for the right code', async () => {
    const a = await orgWithAdmin(t.app);
    const { secret } = await enrol(a.headers);
    const pending = await newSignIn(a.userId);
    for (let i = 0; i < TWO_STEP_LIMITS.perAccount.max; i++) {
      expect((await post('/api/two-step/verify', pending.headers, { code: '000000' })).statusCode).toBe(400);
    }
    const refused = await post('/api/two-step/verify', pending.headers, { code: oathtool(secret, 1) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'two_step_too_many_tries', message: 'Too many wrong codes. Try again in 15 minutes.' });
    expect(refused.json().retryAfterSeconds).toBeGreaterThan(800);
    expect((await get('/api/two-step', pending.headers)).statusCode).toBe(401);
  });

  it('wrong codes are limited per address too, whichever accounts they try', async () => {
    const pendings = [];
    for (let i = 0; i < 2; i++) {
      const a = await orgWithAdmin(t.app);
      await enrol(a.headers);
      pendings.push(await newSignIn(a.userId));
    }
    TWO_STEP_LIMITS.perAddress.max = 3;
    try {
      const tries = [];
      for (const pending of pendings) {
        for (let j = 0; j < 2; j++) {
          const response = await t.app.inject({ method: 'POST', url: '/api/two-step/verify', headers: pending.headers, payload: { code: '000000' }, remoteAddress: '203.0.113.9' });
          tries.push(response.statusCode);
        }
      }
      expect(tries).toEqual([400, 400, 400, 429]);
    } finally {
      TWO_STEP_LIMITS.perAddress.max = 1000;
    }
  });

  it("'Trust this device' skips the second step in that browser only, and only when ticked", async () => {
    const a = await orgWithAdmin(t.app);
    const { recoveryCodes } = await enrol(a.headers);
    const first = await newSignIn(a.userId);
    const plain = await post('/api/two-step/verify', first.headers, { code: recoveryCodes[0] });
    expect(plain.headers['set-cookie']).toBeUndefined();
    const second = await newSignIn(a.userId);
    const ticked = await post('/api/two-step/verify', second.headers, { code: recoveryCodes[1], trustDevice: true });
    const setCookie = String(ticked.headers['set-cookie']);
    expect(setCookie).toMatch(/^__two_step_trust=[\w-]{43}; Max-Age=2592000; Path=\/identity; HttpOnly; Secure; SameSite=Lax$/);
    const fromTrusted = await newSignIn(a.userId, setCookie.split(';')[0]);
    expect(fromTrusted.body.twoStep).toBeUndefined();
    expect((await get('/api/two-step', fromTrusted.headers)).statusCode).toBe(200);
    expect((await newSignIn(a.userId)).body.twoStep).toBe('second-step');
    // Another person's sign-in in the same browser is not trusted by it.
    const b = await orgWithAdmin(t.app);
    await enrol(b.headers);
    expect((await newSignIn(b.userId, setCookie.split(';')[0])).body.twoStep).toBe('second-step');
  });

  it('turning it off needs the password or a current code; it is mailed and recorded', async () => {
    const a = await orgWithAdmin(t.app);
    await signIn(t.app, { email: a.email, password: 'correct-horse' });
    const fresh = await newSignIn(a.userId);
    const { secret } = await enrol(fresh.headers);
    const wrong = await post('/api/two-step/disable', fresh.headers, { password: 'wrong-horse' });
    expect(wrong.json().code).toBe('two_step_proof_wrong');
    expect((await get('/api/two-step', fresh.headers)).json().enabled).toBe(true);
    expect((await post('/api/two-step/disable', fresh.headers, {})).statusCode).toBe(400);
    const off = await post('/api/two-step/disable', fresh.headers, { password: 'correct-horse' });
    expect(off.json()).toEqual({ enabled: false });
    expect((await get('/api/two-step', fresh.headers)).json().enabled).toBe(false);
    expect((await mailsTo(a.email)).map((m) => m.subject)).toContain('2-step verification was turned off — Quire');
    expect((await auditRows(a.userId)).map((r) => r.action)).toContain('security.two_step.disabled');
    void secret;
  });
});

describe.skipIf(!available)('policy: organisations that require 2-step verification of their admins, and provider staff', () => {
  it("an admin without it is sent to enrolment on the next request, for the organisation's and the district's requirement alike", async () => {
    const district = await buildOrganisation(t.app.db);
    const school = await buildOrganisation(t.app.db, { parent_id: district.id });
    const admin = await buildAdmin(t.app.db, { organisationId: school.id });
    const districtAdmin = await orgWithAdmin(t.app);
    await buildAdmin(t.app.db, { organisationId: district.id, email: districtAdmin.email });
    const { headers } = await signIn(t.app, { email: admin.email });
    expect((await graphql(t.app, headers, '{ getOrganisations { id } }')).errors).toBeUndefined();

    // The district's own admin sets the policy; a library manager or another organisation's admin may not.
    const { secret } = await enrol(districtAdmin.headers);
    void secret;
    const set = await t.app.inject({ method: 'PUT', url: `/api/organisations/${district.id}/two-step-policy`, headers: districtAdmin.headers, payload: { requireForAdmins: true } });
    expect(set.statusCode, set.body).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: `/api/organisations/${district.id}/two-step-policy`, headers, payload: { requireForAdmins: false } })).statusCode).toBe(403);
    expect((await get(`/api/organisations/${school.id}/two-step-policy`, headers)).statusCode).toBe(403);

    // The school's admin's existing session: every data call now answers "turn it on first", the Security page works.
    const refused = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: '{ getOrganisations { id } }' } });
    expect(refused.statusCode).toBe(403);
    expect(codeOf(refused)).toBe('two_step_enrolment_required');
    expect((await get(`${orgPath(school.id)}/members/teachers`, headers)).statusCode).toBe(403);
    expect((await get('/identity/get-session', headers)).json().twoStep).toBe('enrol');
    expect((await get(`/analytics/sessions/app/organisations/${school.id}`, headers)).statusCode).toBe(403);
    expect((await get(`/assets/${admin.user_id ?? 'someone'}/avatar`, headers)).statusCode).toBe(401);
    expect((await get('/api/two-step', headers)).json()).toMatchObject({ enabled: false, requiredBy: 'organisation' });
    await enrol(headers);
    expect((await graphql(t.app, headers, '{ getOrganisations { id } }')).errors).toBeUndefined();
    expect((await get(`/api/organisations/${school.id}/two-step-policy`, headers)).json()).toEqual({ requireForAdmins: false, requiredByAbove: true });
  });

  it('provider staff must always turn it on', async () => {
    const { headers } = await signIn(t.app, { email: `staff-${Date.now()}@quire.app` });
    expect(codeOf(await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: '{ getOrganisations { id } }' } }))).toBe('two_step_enrolment_required');
    expect((await get('/api/two-step', headers)).json().requiredBy).toBe('provider-staff');
  });
});

describe.skipIf(!available)("another admin resets a locked-out admin's second factor", () => {
  it('removes it, ends their sessions, records and mails it; never for oneself, never for a non-admin', async () => {
    const a = await orgWithAdmin(t.app);
    const b = await orgWithAdmin(t.app);
    await buildAdmin(t.app.db, { organisationId: a.orgId, email: b.email });
    const { secret } = await enrol(b.headers);
    void secret;
    const reset = (headers: SignedInHeaders, orgId: string, userId: string) => post(`/api/organisations/${orgId}/admins/${userId}/two-step/reset`, headers);
    expect((await reset(a.headers, a.orgId, a.userId)).json().code).toBe('two_step_reset_self');
    const outsider = await orgWithAdmin(t.app);
    expect((await reset(outsider.headers, a.orgId, b.userId)).statusCode).toBe(403);
    expect((await reset(a.headers, a.orgId, outsider.userId)).statusCode).toBe(404);

    const done = await reset(a.headers, a.orgId, b.userId);
    expect(done.json()).toEqual({ enabled: false });
    expect((await get('/api/two-step', b.headers)).statusCode).toBe(401);
    const again = await newSignIn(b.userId);
    expect(again.body.twoStep).toBeUndefined();
    expect((await get('/api/two-step', again.headers)).json().enabled).toBe(false);
    expect((await mailsTo(b.email)).map((m) => m.subject)).toContain('2-step verification was reset on your account — Quire');
    const rows = await t.app.db.selectFrom('audit_events').select(['action', 'actor_user_id']).where('organisation_id', '=', a.orgId).where('action', '=', 'security.two_step.reset').execute();
    expect(rows).toEqual([{ action: 'security.two_step.reset', actor_user_id: a.userId }]);
    expect((await reset(a.headers, a.orgId, b.userId)).json().code).toBe('two_step_not_on');
  });
});
