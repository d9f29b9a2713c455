import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../../test/auth.js';
import { appForFile, formBody as form, uniqueEmail as unique } from '../../../test/file-app.js';

const t = appForFile();

const formHeaders = () => ({ origin: t.origin, 'content-type': 'application/x-www-form-urlencoded' });

async function mailsTo(email: string) {
  await t.app.mail.waitForIdle();
  return t.app.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('recipient', '=', email).orderBy('created_at').execute();
}

/** The path and query of the first link in the text that contains `marker`. */
function linkIn(text: string, marker: string): string {
  const url = text.match(/https?:\/\/\S+/g)?.find((u) => u.includes(marker));
  if (!url) throw new Error(`no ${marker} link in: ${text}`);
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

const register = (email: string, password = 'secret-1', displayName = 'New Teacher') =>
  t.app.inject({
    method: 'POST',
    url: '/auth/email',
    headers: formHeaders(),
    payload: form({ email, password, displayName, isTeacher: 'true', registrationAttempt: 'true' }),
  });

/** An e-mail verification token as the identity provider signs it (HS256 with AUTH_SECRET). */
function signedVerificationToken(email: string, expiresInSeconds: number): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const body = `${part({ alg: 'HS256' })}.${part({ email, iat: now - 7200, exp: now + expiresInSeconds })}`;
  return `${body}.${createHmac('sha256', t.env.AUTH_SECRET ?? '').update(body).digest('base64url')}`;
}

describe('registration and e-mail verification', () => {
  it('registers, mails a single-use link that verifies, then signs in', async () => {
    const email = unique('register');
    const created = await register(email);
    expect(created.statusCode).toBe(200);
    expect(created.json().emailVerified).toBe(false);

    const verify = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: t.origin }, payload: { token: created.json().token } });
    expect(verify.json().user).toMatchObject({ email, name: 'New Teacher', emailVerified: false });

    const [mail] = await mailsTo(email);
    expect(mail?.subject).toBe('Verify your email address');
    const link = linkIn(mail?.text_body ?? '', '/identity/verify-email');
    const first = await t.app.inject({ method: 'GET', url: link });
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toMatch(/\/sign-in\/verify-email$/);
    const user = await t.app.db.selectFrom('user').select('emailVerified').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(true);

    const again = await t.app.inject({ method: 'GET', url: link });
    expect(again.headers.location).toMatch(/error=invalid_token/);

    const signInAnswer = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email, password: 'secret-1', isTeacher: 'true' }) });
    expect(signInAnswer.json()).toMatchObject({ emailVerified: true });
  });

  it('an expired or forged verification link verifies nothing', async () => {
    const email = unique('expired');
    await register(email);
    const expired = signedVerificationToken(email, -60);
    const response = await t.app.inject({ method: 'GET', url: `/identity/verify-email?token=${expired}&callbackURL=/sign-in/verify-email` });
    expect(response.headers.location).toMatch(/error=/);
    const forged = `${expired.slice(0, -4)}AAAA`;
    const forgedAnswer = await t.app.inject({ method: 'GET', url: `/identity/verify-email?token=${forged}&callbackURL=/sign-in/verify-email` });
    expect(forgedAnswer.headers.location).toMatch(/error=/);
    const user = await t.app.db.selectFrom('user').select('emailVerified').where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(false);
  });

  it('refuses an e-mail already in use, a short password and a missing name', async () => {
    const email = unique('dup');
    await register(email);
    const dup = await register(email);
    expect(dup.statusCode).toBe(400);
    expect(dup.json().code).toBe('auth/email-already-in-use');
    expect((await register(unique('short'), '12345')).json().code).toBe('auth/weak-password');
    expect((await register(unique('noname'), 'secret-1', '  ')).json().code).toBe('auth/missing-display-name');
    expect((await register('x@quire.app')).statusCode).toBe(403);
  });

  it('resend mails the unverified account again and answers the same for unknown addresses', async () => {
    const email = unique('resend');
    await register(email);
    const resent = await t.app.inject({ method: 'POST', url: `/api/resend-email/${encodeURIComponent(email)}`, headers: { origin: t.origin } });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ sent: true });
    expect(await mailsTo(email)).toHaveLength(2);
    const nobody = unique('resend-nobody');
    const unknown = await t.app.inject({ method: 'POST', url: `/api/resend-email/${encodeURIComponent(nobody)}`, headers: { origin: t.origin } });
    expect(unknown.json()).toEqual({ sent: true });
    expect(await mailsTo(nobody)).toHaveLength(0);
  });
});

describe('password reset', () => {
  const requestReset = (email: string) =>
    t.app.inject({ method: 'POST', url: '/identity/request-password-reset', headers: { origin: t.origin }, payload: { email } });

  it('same answer for unknown e-mails; the link works once, within one hour', async () => {
    const email = unique('reset');
    await signIn(t.app, { email, password: 'old-secret' });
    const known = await requestReset(email);
    const nobody = unique('reset-nobody');
    const unknown = await requestReset(nobody);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(await mailsTo(nobody)).toHaveLength(0);

    const [mail] = await mailsTo(email);
    const link = linkIn(mail?.text_body ?? '', '/auth/reset-password');
    const token = new URL(link, t.origin).searchParams.get('token') ?? '';
    const stored = await t.app.db.selectFrom('verification').select('expiresAt').where('identifier', '=', `reset-password:${token}`).executeTakeFirstOrThrow();
    const lifetime = new Date(stored.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(55 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000);

    const page = await t.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="newPassword"');
    const submit = () =>
      t.app.inject({ method: 'POST', url: '/auth/reset-password', headers: formHeaders(), payload: form({ token, newPassword: 'new-secret' }) });
    expect((await submit()).statusCode).toBe(200);
    expect((await submit()).statusCode).toBe(400);

    const withNew = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email, password: 'new-secret' }) });
    expect(withNew.statusCode).toBe(200);
    const withOld = await t.app.inject({ method: 'POST', url: '/auth/email', headers: formHeaders(), payload: form({ email, password: 'old-secret' }) });
    expect(withOld.statusCode).toBe(400);
  });

  it('an expired reset link is refused', async () => {
    const email = unique('reset-expired');
    await signIn(t.app, { email, password: 'old-secret' });
    await requestReset(email);
    const [mail] = await mailsTo(email);
    const token = new URL(linkIn(mail?.text_body ?? '', '/auth/reset-password'), t.origin).searchParams.get('token') ?? '';
    await t.app.db.updateTable('verification').set({ expiresAt: new Date(Date.now() - 1000) }).where('identifier', '=', `reset-password:${token}`).execute();
    const response = await t.app.inject({ method: 'POST', url: '/auth/reset-password', headers: formHeaders(), payload: form({ token, newPassword: 'new-secret' }) });
    expect(response.statusCode).toBe(400);
  });
});
