import { describe, expect, it } from 'vitest';
import { signIn } from './auth.js';
import { buildOrganisation, buildTeacher } from './factories.js';
import { appForFile, formBody as form, uniqueEmail as unique } from './file-app.js';

// An imported (pending) teacher who creates or verifies an account becomes a
// signed-up teacher (role 600, the account's name), whatever the sign-in method.

const t = appForFile();

async function pendingIn(email: string) {
  const org = await buildOrganisation(t.app.db);
  await buildTeacher(t.app.db, { organisationId: org.id, email, display_name: '', role: -600, pending: true });
  return org.id;
}

const memberOf = (orgId: string, email: string) =>
  t.app.db
    .selectFrom('members')
    .select(['pending', 'role', 'display_name', 'user_id', 'signed_up_at'])
    .where('organisation_id', '=', orgId)
    .where('email', '=', email)
    .executeTakeFirstOrThrow();

describe('a pending member signs up', () => {
  it('stays pending while the address is unverified, and becomes a signed-up teacher once verified', async () => {
    const email = unique('pending');
    const orgId = await pendingIn(email);
    const created = await t.app.inject({
      method: 'POST',
      url: '/auth/email',
      headers: { origin: t.origin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ email, password: 'secret-1', displayName: 'Pat Pending', isTeacher: 'true', registrationAttempt: 'true' }),
    });
    expect(created.statusCode).toBe(200);
    expect(await memberOf(orgId, email)).toMatchObject({ pending: true, role: -600 });

    await t.app.mail.waitForIdle();
    const mail = await t.app.db.selectFrom('mail_outbox').select('text_body').where('recipient', '=', email).executeTakeFirstOrThrow();
    const link = new URL(mail.text_body.match(/https?:\/\/\S+verify-email\S*/)?.[0] ?? '');
    const verified = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    expect(verified.statusCode).toBe(302);

    const user = await t.app.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const member = await memberOf(orgId, email);
    expect(member).toMatchObject({ pending: false, role: 600, display_name: 'Pat Pending', user_id: user.id });
    expect(member.signed_up_at).not.toBeNull();
  });

  it('a verified account created by another sign-in method (custom token, provider) signs the member up at sign-in', async () => {
    const email = unique('provider');
    const orgId = await pendingIn(email);
    const other = await pendingIn(email);
    await signIn(t.app, { email, name: 'Grace Provider' });
    expect(await memberOf(orgId, email)).toMatchObject({ pending: false, role: 600, display_name: 'Grace Provider' });
    expect(await memberOf(other, email)).toMatchObject({ pending: false, role: 600 });
  });

  it('leaves members of other addresses, students and signed-up managers alone', async () => {
    const email = unique('manager');
    const org = await buildOrganisation(t.app.db);
    await buildTeacher(t.app.db, { organisationId: org.id, email, display_name: 'Kept Name', role: 400, pending: false });
    const bystander = unique('bystander');
    await buildTeacher(t.app.db, { organisationId: org.id, email: bystander, display_name: '', role: -600, pending: true });
    await signIn(t.app, { email, name: 'Account Name' });
    expect(await memberOf(org.id, email)).toMatchObject({ pending: false, role: 400, display_name: 'Kept Name' });
    expect(await memberOf(org.id, bystander)).toMatchObject({ pending: true, role: -600 });
  });
});
