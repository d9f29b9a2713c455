import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql, libraryManagerOf, orgWithAdmin } from './teachers.helpers.js';
import { sendTeacherEmail } from '../src/modules/teacher-mail/teacher-mail.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PRODUCT_NAME: 'Quire', PUBLIC_URL: 'https://console.example.org' });
});
afterAll(() => t.close());

const SEND = `mutation($orgId: ID!, $email: TeacherEmailInput!) { sendEmail(orgId: $orgId, email: $email) { sentTo errors } }`;

async function outbox(orgId: string) {
  await t.app.mail.waitForIdle();
  return t.app.db.selectFrom('mail_outbox').selectAll().where('organisation_id', '=', orgId).orderBy('recipient').execute();
}

describe('sendEmail: welcome e-mail', () => {
  it('mails each teacher with their sign-up link and the licence sentence when all hold a 1000-book licence, skipping students', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const unlimited = await buildLicense(t.app.db, { organisationId: orgId, book_quota: 1000 });
    const a = await buildTeacher(t.app.db, { organisationId: orgId, email: 'ann+x@s.org', license_id: unlimited.id, pending: true, role: -600 });
    const b = await buildTeacher(t.app.db, { organisationId: orgId, email: 'ben@s.org', license_id: unlimited.id });
    const student = await buildTeacher(t.app.db, { organisationId: orgId, email: 'kid@s.org', is_student: true });
    const email = { kind: 'WELCOME', subject: 'Welcome to Quire', body: { plain: 'Hello from the district.' }, members: [a.id, b.id, student.id], date: '2099-03-05' };

    const res = await graphql<{ sendEmail: { sentTo: string[]; errors: string[] } }>(t.app, headers, SEND, { orgId, email });
    expect(res.data?.sendEmail.sentTo.sort()).toEqual([a.id, b.id].sort());
    expect(res.data?.sendEmail.errors).toEqual(["Some users selected have student accounts and weren't emailed"]);

    const mails = await outbox(orgId);
    expect(mails.map((m) => m.recipient)).toEqual(['ann+x@s.org', 'ben@s.org']);
    expect(mails[0]).toMatchObject({ subject: 'Welcome to Quire', status: 'logged' });
    expect(mails[0]!.text_body).toContain('Hello from the district.');
    expect(mails[0]!.text_body).toContain('unlimited libraries and up to 1000 books');
    expect(mails[0]!.text_body).toContain('co-teachers');
    expect(mails[0]!.text_body).toContain('5th March 2099');
    expect(mails[0]!.text_body).toContain('https://console.example.org/sign-in/register/ann%2Bx%40s.org');
    // Ben has signed up already: his mail leads to sign-in, not to registration, with no deadline.
    expect(mails[1]!.text_body).toContain('https://console.example.org/sign-in/email/ben%40s.org');
    expect(mails[1]!.text_body).not.toContain('/sign-in/register/');
    expect(mails[1]!.text_body).not.toContain('create your account');
  });

  it('leaves the licence sentence out when one recipient lacks the 1000-book licence, and defaults the date to 14 days ahead', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const unlimited = await buildLicense(t.app.db, { organisationId: orgId, book_quota: 1000 });
    const a = await buildTeacher(t.app.db, { organisationId: orgId, license_id: unlimited.id, pending: true, role: -600 });
    const b = await buildTeacher(t.app.db, { organisationId: orgId, pending: true, role: -600 });
    const res = await graphql(t.app, headers, SEND, {
      orgId, email: { kind: 'WELCOME', subject: 'Welcome', body: { plain: 'Hi' }, members: [a.id, b.id] },
    });
    expect(res.errors).toBeUndefined();
    const mails = await outbox(orgId);
    expect(mails).toHaveLength(2);
    const in14 = new Date(Date.now() + 14 * 86_400_000);
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
    for (const mail of mails) {
      expect(mail.text_body).not.toContain('1000 books');
      expect(mail.text_body).toContain(`${months[in14.getUTCMonth()]} ${in14.getUTCFullYear()}`);
    }
  });

  it('refuses an empty subject or message, and the welcome e-mail in a domain organisation unless provider staff', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { is_domain: true });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const base = { kind: 'WELCOME', subject: 'Welcome', body: { plain: 'Hi' }, members: [teacher.id] };
    expect((await graphql(t.app, headers, SEND, { orgId, email: { ...base, subject: ' ' } })).errors?.[0]?.message).toBe('Please include a subject');
    expect((await graphql(t.app, headers, SEND, { orgId, email: { ...base, body: { plain: '' } } })).errors?.[0]?.message).toBe('Please include a message');
    expect((await graphql(t.app, headers, SEND, { orgId, email: base })).errors?.[0]?.extensions?.statusCode).toBe(403);
    const staff = await orgWithAdmin(t.app, {}, `mail-${Date.now()}@${t.env.PROVIDER_EMAIL_DOMAIN}`);
    await t.app.db.insertInto('admins').values({ organisation_id: orgId, email: staff.email, user_id: staff.userId }).execute();
    expect((await graphql(t.app, staff.headers, SEND, { orgId, email: base })).errors).toBeUndefined();
    expect(await outbox(orgId)).toHaveLength(1);
  });
});

describe('sendEmail: certification request', () => {
  it('refuses a sign-up date in the past', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, pending: true, role: -600 });
    const res = await graphql(t.app, headers, SEND, {
      orgId, email: { kind: 'WELCOME', subject: 'Welcome', body: { plain: 'Hi' }, members: [teacher.id], date: '2020-01-01' },
    });
    expect(res.errors?.[0]?.extensions?.code).toBe('invalid_date');
    expect(await outbox(orgId)).toHaveLength(0);
  });

  it('names the about-1-hour course and carries the sign-up link', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, email: 'cert@s.org' });
    const res = await graphql(t.app, headers, SEND, {
      orgId, email: { kind: 'CERTIFICATION', subject: 'Get certified', body: { plain: 'Please take the course.' }, members: [teacher.id] },
    });
    expect(res.errors).toBeUndefined();
    const [mail] = await outbox(orgId);
    expect(mail!.text_body).toContain('about 1 hour');
    expect(mail!.text_body).toContain('https://console.example.org/sign-in/email/cert%40s.org');
    const audit = await t.app.db.selectFrom('audit_events').selectAll().where('organisation_id', '=', orgId).where('action', '=', 'members.email.certification').executeTakeFirstOrThrow();
    expect(audit.target_ids).toEqual([teacher.id]);
  });

  it('refuses other organisations, their teachers, and library managers, sending nothing', async () => {
    const mine = await orgWithAdmin(t.app);
    const theirs = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: theirs.orgId });
    const manager = await libraryManagerOf(t.app, theirs.orgId);
    const email = { kind: 'CERTIFICATION', subject: 'S', body: { plain: 'M' }, members: [teacher.id] };
    expect((await graphql(t.app, mine.headers, SEND, { orgId: theirs.orgId, email })).errors?.[0]?.extensions?.statusCode).toBe(403);
    expect((await graphql(t.app, mine.headers, SEND, { orgId: mine.orgId, email })).errors?.[0]?.extensions?.statusCode).toBe(404);
    expect((await graphql(t.app, manager, SEND, { orgId: theirs.orgId, email })).errors?.[0]?.extensions?.statusCode).toBe(403);
    expect(await outbox(theirs.orgId)).toEqual([]);
    expect(await outbox(mine.orgId)).toEqual([]);
  });
});

describe('teacherEmailPreview', () => {
  it('gives the fixed subject, a default message and the composed body', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { name: 'Hill School' });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, email: 'pre@s.org', pending: true, role: -600 });
    const res = await graphql<{ teacherEmailPreview: { subject: string; defaultMessage: string; plain: string; recipients: number } }>(
      t.app, headers,
      'query($orgId: ID!, $m: [ID!]!) { teacherEmailPreview(orgId: $orgId, kind: WELCOME, members: $m) { subject defaultMessage plain recipients errors } }',
      { orgId, m: [teacher.id] },
    );
    expect(res.data?.teacherEmailPreview).toMatchObject({ subject: 'Welcome to Quire', recipients: 1 });
    expect(res.data?.teacherEmailPreview.defaultMessage).toContain('Hill School');
    expect(res.data?.teacherEmailPreview.plain).toContain('/sign-in/register/pre%40s.org');

    const other = await orgWithAdmin(t.app);
    const PREVIEW = 'query($orgId: ID!, $m: [ID!]!) { teacherEmailPreview(orgId: $orgId, kind: CERTIFICATION, members: $m) { plain } }';
    expect((await graphql(t.app, other.headers, PREVIEW, { orgId, m: [teacher.id] })).errors?.[0]?.extensions?.statusCode).toBe(403);
    expect((await graphql(t.app, other.headers, PREVIEW, { orgId: other.orgId, m: [teacher.id] })).errors?.[0]?.extensions?.statusCode).toBe(404);
  });
});

describe('a mail that cannot be handed over', () => {
  it.each([
    ['welcome', 'Error sending welcome email'],
    ['certification', 'Error sending certification request'],
  ] as const)('is reported in the words of its own e-mail: %s', async (kind, text) => {
    const { orgId, userId, email } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, email: 'down@s.org' });
    const failing = { send: () => Promise.reject(new Error('smtp down')) };
    const result = await sendTeacherEmail(
      t.app.db,
      { userId, email, displayName: 'Admin', emailVerified: true },
      failing,
      { productName: 'Quire', publicUrl: 'https://console.example.org', providerEmailDomain: 'quire.app' },
      { organisationId: orgId, kind, subject: 'Subject', message: 'Message', memberIds: [teacher.id] },
    );
    expect(result.sentTo).toEqual([]);
    expect(result.errors).toEqual([`${text}: down@s.org`]);
  });
});
