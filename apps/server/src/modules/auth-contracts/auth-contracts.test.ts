import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../../test/auth.js';
import { buildOrganisation } from '../../../test/factories.js';
import { appForFile, formBody as form, uniqueEmail as unique } from '../../../test/file-app.js';

const t = appForFile({ CHAT_SUPPORT_SECRET: 'chat-secret', CHAT_SUPPORT_PROVIDER: 'intercom' });

const formHeaders = () => ({ origin: t.origin, 'content-type': 'application/x-www-form-urlencoded' });

describe('POST /auth/email (sign-in)', () => {
  it('200 returns a custom token that signs the user in', async () => {
    const email = unique('signin');
    await signIn(t.app, { email, password: 'secret-1' });
    const response = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email, password: 'secret-1', isTeacher: 'true' }) });
    expect(response.statusCode).toBe(200);
    const { token, emailVerified } = response.json();
    expect(emailVerified).toBe(true);
    const verify = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: t.origin }, payload: { token } });
    expect(verify.statusCode).toBe(200);
    expect(verify.json().user.email).toBe(email);
  });

  it('400 invalid credentials: wrong password and unknown e-mail carry their codes', async () => {
    const email = unique('wrong');
    await signIn(t.app, { email, password: 'secret-1' });
    const wrong = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email, password: 'nope-nope', isTeacher: 'true' }) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'auth/wrong-password', message: 'Invalid email or password' });
    const unknown = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email: unique('nobody'), password: 'x-secret', isTeacher: 'true' }) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('auth/user-not-found');
    const invalid = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email: 'not-an-email', password: 'x-secret' }) });
    expect(invalid.json().code).toBe('auth/invalid-email');
  });

  it('refuses district-SSO and city-government addresses', async () => {
    const sso = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email: 'a@schools.example-district.org', password: 'secret-1' }) });
    expect(sso.statusCode).toBe(400);
    expect(sso.json()).toMatchObject({ code: 'auth/district-sso', message: 'Please sign in using your district SSO such as Clever or Schoology' });
    const city = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email: 'a@parks.cityofexample.gov', password: 'secret-1' }) });
    expect(city.json().code).toBe('auth/city-government');
  });
});

describe('POST /auth/allowed-as-teacher', () => {
  it('200 for an ordinary address, 403 for staff, district-SSO and student accounts', async () => {
    const post = (email: string) =>
      t.app.inject({ method: 'POST', url: '/auth/allowed-as-teacher', headers: formHeaders(), payload: form({ email }) });
    expect((await post(unique('teacher'))).statusCode).toBe(200);
    expect((await post('someone@quire.app')).statusCode).toBe(403);
    expect((await post('someone@students.example-district.org')).statusCode).toBe(403);
    const student = unique('student');
    const org = await buildOrganisation(t.app.db);
    await t.app.db.insertInto('members').values({ id: crypto.randomUUID(), organisation_id: org.id, email: student, is_student: true }).execute();
    const refused = await post(student);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("You can't sign up as admin with this email address");
  });
});

describe('GET /api/users/v2/providers/{email}', () => {
  it('lists password for an e-mail account, [] for none', async () => {
    const email = unique('providers');
    await signIn(t.app, { email, password: 'secret-1' });
    const found = await t.app.inject({ method: 'GET', url: `/api/users/v2/providers/${encodeURIComponent(email.toUpperCase())}` });
    expect(found.json()).toEqual(['password']);
    const none = await t.app.inject({ method: 'GET', url: `/api/users/v2/providers/${encodeURIComponent(unique('none'))}` });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });
});

describe('POST /api/token', () => {
  it('200 with the ID token of the session user; 401 for a forged or foreign token', async () => {
    const a = await signIn(t.app, { email: unique('token-a') });
    const b = await signIn(t.app, { email: unique('token-b') });
    const idToken = (await t.app.inject({ method: 'GET', url: '/identity/token', headers: a.headers })).json().token as string;
    const ok = await t.app.inject({ method: 'POST', url: '/api/token', headers: a.headers, payload: { token: idToken, userProperties: { isTeacher: true, needsLibraryOnboarding: false } } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ uid: a.userId, emailVerified: true, bc_orgs: {} });
    const log = await t.app.db.selectFrom('access_log').selectAll().where('user_id', '=', a.userId).where('event', '=', 'sign-in').execute();
    expect(log).toHaveLength(1);

    const foreign = await t.app.inject({ method: 'POST', url: '/api/token', headers: b.headers, payload: { token: idToken } });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toMatchObject({ code: 'auth/invalid-id-token', providerIds: [] });
    const [h, p] = idToken.split('.');
    const forged = `${h}.${p}.${Buffer.from('not-a-signature').toString('base64url')}`;
    expect((await t.app.inject({ method: 'POST', url: '/api/token', headers: a.headers, payload: { token: forged } })).statusCode).toBe(401);
  });
});

describe('access log, chat support hash, /users/{uid}', () => {
  it('re-auth writes the access log; 401 without a session', async () => {
    const { userId, headers } = await signIn(t.app, { email: unique('reauth') });
    const response = await t.app.inject({ method: 'POST', url: '/api/v2/access-log/re-auth', headers });
    expect(response.statusCode).toBe(204);
    const rows = await t.app.db.selectFrom('access_log').select('event').where('user_id', '=', userId).execute();
    expect(rows.map((r) => r.event)).toEqual(['re-auth']);
    expect((await t.app.inject({ method: 'POST', url: '/api/v2/access-log/re-auth', headers: { origin: t.origin } })).statusCode).toBe(401);
  });

  it('identity verification is the HMAC of the uid, only for the user themselves', async () => {
    const me = await signIn(t.app, { email: unique('chat') });
    const other = await signIn(t.app, { email: unique('chat-other') });
    const own = await t.app.inject({ method: 'GET', url: `/api/users/v2/${me.userId}/intercom/identity-verification`, headers: me.headers });
    expect(own.statusCode).toBe(200);
    expect(own.body).toBe(createHmac('sha256', 'chat-secret').update(me.userId).digest('hex'));
    const theirs = await t.app.inject({ method: 'GET', url: `/api/users/v2/${other.userId}/intercom/identity-verification`, headers: me.headers });
    expect(theirs.statusCode).toBe(403);
    const wrongProvider = await t.app.inject({ method: 'GET', url: `/api/users/v2/${me.userId}/zendesk/identity-verification`, headers: me.headers });
    expect(wrongProvider.statusCode).toBe(404);
  });

  it('/identity/users/{uid} reads the own record only', async () => {
    const me = await signIn(t.app, { email: unique('users'), name: 'Ada Teacher' });
    const other = await signIn(t.app, { email: unique('users-other') });
    const own = await t.app.inject({ method: 'GET', url: `/identity/users/${me.userId}`, headers: me.headers });
    expect(own.json()).toMatchObject({ uid: me.userId, displayName: 'Ada Teacher', emailVerified: true });
    expect((await t.app.inject({ method: 'GET', url: `/identity/users/${other.userId}`, headers: me.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/identity/users/${me.userId}` })).statusCode).toBe(401);
  });

  it('POST /payments/v1/admin/auth without a session or credentials is 401', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/payments/v1/admin/auth', headers: { origin: t.origin } });
    expect(response.statusCode).toBe(401);
  });
});
