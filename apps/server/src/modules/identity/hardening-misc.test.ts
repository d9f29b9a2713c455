import { describe, expect, it } from 'vitest';
import { sessionCookieFrom, signIn } from '../../../test/auth.js';
import { buildTeacher } from '../../../test/factories.js';
import { graphql, orgWithAdmin } from '../../../test/teachers.helpers.js';
import { sendMailHandler } from '../../mail/send-mail.job.js';
import { appForFile, uniqueEmail as unique } from '../../../test/file-app.js';

/** Length limits, the admin/auth token in the same browser, the mail log, session tokens. */
const t = appForFile({}, { timeout: 180_000 });

describe('length limits', () => {
  it('refuses a display name no person has, on both registration routes', async () => {
    const long = 'N'.repeat(10_000);
    const viaForm = await t.app.inject({
      method: 'POST',
      url: '/auth/email',
      headers: { origin: t.origin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: unique('long'), password: 'secret-1', displayName: long, registrationAttempt: 'true' }).toString(),
    });
    expect(viaForm.statusCode).toBe(400);
    const viaSdk = await t.app.inject({ method: 'POST', url: '/identity/sign-up/email', headers: { origin: t.origin }, payload: { email: unique('long'), password: 'secret-12', name: long } });
    expect(viaSdk.statusCode).toBe(400);
    expect(await t.app.db.selectFrom('user').select('id').where('name', '=', long).execute()).toEqual([]);
  });

  it('refuses avatar data and names beyond the limits when a user updates their profile', async () => {
    const { headers } = await signIn(t.app, { email: unique('avatar') });
    const avatar = await t.app.inject({ method: 'POST', url: '/identity/update-user', headers, payload: { image: `data:image/png;base64,${'A'.repeat(1024 * 1024)}` } });
    expect(avatar.statusCode).toBe(400);
    const name = await t.app.inject({ method: 'POST', url: '/identity/update-user', headers, payload: { name: 'x'.repeat(5000) } });
    expect(name.statusCode).toBe(400);
    const fine = await t.app.inject({ method: 'POST', url: '/identity/update-user', headers, payload: { name: 'Ada Lovelace' } });
    expect(fine.statusCode).toBe(200);
  });

  it('refuses a 1 MB teacher e-mail message and sends nothing', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const query = `mutation($orgId: ID!, $email: TeacherEmailInput!) { sendEmail(orgId: $orgId, email: $email) { sentTo } }`;
    const email = { kind: 'WELCOME', subject: 'Hi', body: { plain: 'm'.repeat(1024 * 1024) }, members: [teacher.id] };
    const answer = await graphql(t.app, headers, query, { orgId, email });
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'email_message_too_long', statusCode: 400 });
    await t.app.mail.waitForIdle();
    expect(await t.app.db.selectFrom('mail_outbox').select('id').where('organisation_id', '=', orgId).execute()).toEqual([]);
  });
});

describe('{payments}/v1/admin/auth in the same browser', () => {
  it('using its token keeps the browser signed in', async () => {
    const { headers } = await signIn(t.app, { email: unique('same-browser') });
    const issued = await t.app.inject({ method: 'POST', url: '/payments/v1/admin/auth', headers, payload: {} });
    expect(issued.statusCode).toBe(200);
    const verify = await t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers, payload: { token: issued.body } });
    expect(verify.statusCode).toBe(200);
    const cookie = sessionCookieFrom(verify.headers['set-cookie']) ?? headers.cookie;
    const session = await t.app.inject({ url: '/identity/get-session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json()).not.toBeNull();
    expect((await t.app.inject({ url: '/identity/token', headers: { cookie } })).statusCode).toBe(200);
  });
});

describe('session tokens stay in the cookie', () => {
  it('list-sessions and get-session carry no session token', async () => {
    const { headers } = await signIn(t.app, { email: unique('tokens') });
    const token = decodeURIComponent(headers.cookie.split('=')[1] ?? '').split('.')[0] ?? '';
    expect(token.length).toBeGreaterThan(10);
    const list = await t.app.inject({ url: '/identity/list-sessions', headers });
    expect(list.statusCode).toBe(200);
    expect(Array.isArray(list.json())).toBe(true);
    expect(list.body).not.toContain(token);
    expect(list.json()[0]).not.toHaveProperty('token');
    const session = await t.app.inject({ url: '/identity/get-session', headers });
    expect(session.body).not.toContain(token);
  });
});

describe('mail without SMTP_URL', () => {
  it('in production, logs that the mail went to the outbox without its links (no reset token)', async () => {
    const lines: Array<{ fields: Record<string, unknown>; line: string }> = [];
    const row = {
      id: 'm1',
      status: 'queued',
      recipient: 'ada@school.example.org',
      subject: 'Reset your Quire password',
      text_body: 'Follow this link: https://quire.example.org/auth/reset-password?token=SECRET-RESET-TOKEN',
    };
    const repository = { findById: async () => row, markDelivered: async () => undefined } as unknown as Parameters<typeof sendMailHandler>[0]['repository'];
    const handler = sendMailHandler({ repository, transport: null, from: 'x', retryLimit: 1, log: (fields, line) => lines.push({ fields, line }), logLinks: false });
    await handler({ data: { outboxId: 'm1' } } as never);
    expect(JSON.stringify(lines)).not.toContain('SECRET-RESET-TOKEN');
    expect(lines[0]?.line).toBe('Mail to ada@school.example.org: "Reset your Quire password" kept in the outbox (SMTP_URL is not set)');
  });
});
