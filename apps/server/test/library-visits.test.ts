import {
  LIBRARY_ROLE_CO_TEACHER,
  LIBRARY_ROLE_READ_ONLY,
  LIBRARY_ROLE_STUDENT,
  authMessages,
  libraryMessages,
  validationMessages,
  VISIT_REASONS,
} from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleOrigin } from './auth.js';
import { buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { markProviderStaffByDomain } from '../src/modules/libraries/org-membership.repository.js';
import { auditActions, buildLibrary, membershipsOf } from './libraries.helpers.js';
import { graphql, libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

const signInLinkUsedText = authMessages.signInLinkUsed;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ APP_URL: 'https://app.quire.test', PRODUCT_NAME: 'Quire' });
});
afterAll(() => t.close());

async function visitable(overrides: { visit_libraries?: boolean } = {}) {
  const admin = await orgWithAdmin(t.app, { visit_libraries: overrides.visit_libraries ?? true });
  const teacher = await buildTeacher(t.app.db, { organisationId: admin.orgId, display_name: 'Ann Lee', email: `ann-${admin.orgId.slice(0, 8)}@school.org` });
  const library = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'Science' });
  const join = (libraryId: string, payload: Record<string, unknown>, headers = admin.headers, orgId = admin.orgId) =>
    t.app.inject({ method: 'POST', url: `/api/${teacher.id}/admins/${libraryId}/join?organisationId=${orgId}`, headers, payload });
  return { ...admin, teacher, library, join };
}

async function mailTo(recipient: string) {
  await t.app.mail.waitForIdle();
  return t.app.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', recipient).execute();
}

describe('POST /api/:teacherId/admins/:libraryId/join', () => {
  it('adds the admin to the organisation (with the apply-to-all licence) and the library, records the reason and e-mails the owner', async () => {
    const v = await visitable();
    const license = await buildLicense(t.app.db, { organisationId: v.orgId, apply_to_all: true });
    const res = await v.join(v.library.id, { reason: VISIT_REASONS[2] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(body.url).toBe(`https://app.quire.test/library/${v.library.id}?token=${body.token}&organisationId=${v.orgId}`);

    const member = await t.app.db.selectFrom('members').selectAll().where('organisation_id', '=', v.orgId).where('email', '=', v.email).executeTakeFirstOrThrow();
    expect(member).toMatchObject({ user_id: v.userId, pending: false, role: 600, license_id: license.id, revoked_at: null });
    expect(await membershipsOf(t.app.db, v.library.id)).toContainEqual({ member_id: member.id, role: LIBRARY_ROLE_CO_TEACHER });

    const [audit] = await auditActions(t.app.db, v.orgId, 'libraries.visit');
    expect(audit).toMatchObject({ reason: 'Help teacher with content', actor_user_id: v.userId, target_ids: [v.library.id] });

    const [mail] = await mailTo(v.teacher.email);
    expect(mail?.subject).toContain('"Science"');
    expect(mail?.text_body).toContain('Reason for the visit: Help teacher with content');

    // The list now says the admin joined, so the console asks no reason the next time.
    const list = (await t.app.inject({ url: `/api/${v.teacher.id}?organisationId=${v.orgId}`, headers: v.headers })).json();
    expect(list.unarchived[0].joined).toBe(true);
    const again = await v.join(v.library.id, {});
    expect(again.statusCode).toBe(200);
    expect(await mailTo(v.teacher.email)).toHaveLength(1);
  });

  it("takes 'Other' with free text up to 65 characters, and refuses a missing or longer reason on a first visit", async () => {
    const v = await visitable();
    const missing = await v.join(v.library.id, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'visit_reason_required', message: validationMessages.visitReasonRequired });
    expect((await v.join(v.library.id, { reason: 'Other' })).json().code).toBe('visit_reason_required');
    const long = await v.join(v.library.id, { reason: 'Other', otherReason: 'x'.repeat(66) });
    expect(long.json()).toMatchObject({ code: 'visit_reason_too_long', message: validationMessages.visitReasonTooLong });
    expect((await v.join(v.library.id, { reason: 'y'.repeat(66) })).statusCode).toBe(400);
    // Nothing happened on the refusals.
    expect(await membershipsOf(t.app.db, v.library.id)).toHaveLength(1);
    const ok = await v.join(v.library.id, { reason: 'Other', otherReason: `  ${'z'.repeat(65)}  ` });
    expect(ok.statusCode).toBe(200);
    const [audit] = await auditActions(t.app.db, v.orgId, 'libraries.visit');
    expect(audit?.reason).toBe('z'.repeat(65));
  });

  it('refuses without visitLibraries, for a library manager, and for an admin of another organisation', async () => {
    const off = await visitable({ visit_libraries: false });
    const res = await off.join(off.library.id, { reason: VISIT_REASONS[0] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'visit_not_allowed', message: libraryMessages.visitNotAllowed });

    const v = await visitable();
    const manager = await libraryManagerOf(t.app, v.orgId);
    expect((await v.join(v.library.id, { reason: VISIT_REASONS[0] }, manager)).json().code).toBe('visit_not_allowed');

    const other = await orgWithAdmin(t.app, { visit_libraries: true });
    expect((await v.join(v.library.id, { reason: VISIT_REASONS[0] }, other.headers)).statusCode).toBe(403);
    expect((await v.join(v.library.id, { reason: VISIT_REASONS[0] }, other.headers, other.orgId)).statusCode).toBe(404);
    expect(await membershipsOf(t.app.db, v.library.id)).toHaveLength(1);
    expect(await auditActions(t.app.db, v.orgId, 'libraries.visit')).toHaveLength(0);
  });

  it("refuses private libraries and libraries where the teacher is a student or read-only, and another teacher's library", async () => {
    const v = await visitable();
    const myBooks = await buildLibrary(t.app.db, { organisationId: v.orgId, ownerId: v.teacher.id, isPrivate: true, name: 'My Books' });
    const colleague = await buildTeacher(t.app.db, { organisationId: v.orgId });
    const asStudent = await buildLibrary(t.app.db, { organisationId: v.orgId, ownerId: colleague.id, members: [{ memberId: v.teacher.id, role: LIBRARY_ROLE_STUDENT }] });
    const asReader = await buildLibrary(t.app.db, { organisationId: v.orgId, ownerId: colleague.id, members: [{ memberId: v.teacher.id, role: LIBRARY_ROLE_READ_ONLY }] });
    const notTheirs = await buildLibrary(t.app.db, { organisationId: v.orgId, ownerId: colleague.id });
    for (const id of [myBooks.id, asStudent.id, asReader.id]) {
      const res = await v.join(id, { reason: VISIT_REASONS[1] });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'visit_forbidden', message: libraryMessages.joinForbidden });
    }
    expect((await v.join(notTheirs.id, { reason: VISIT_REASONS[1] })).statusCode).toBe(404);
  });
});

describe('the visit link signs the admin in to the product (spec §4)', () => {
  const verify = (token: string) =>
    t.app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin: consoleOrigin(t.app) }, payload: { token } });

  it('answers a sign-in-with-token link to the library in the product app; the token signs the admin in once', async () => {
    const v = await visitable();
    const res = await v.join(v.library.id, { reason: VISIT_REASONS[5] });
    expect(res.statusCode).toBe(200);
    const { token, url, expiresAt } = res.json() as { token: string; url: string; expiresAt: string };
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(`https://app.quire.test/library/${v.library.id}`);
    expect(link.searchParams.get('token')).toBe(token);
    expect(link.searchParams.get('organisationId')).toBe(v.orgId);
    // Short-lived: minutes, not hours.
    const lifetime = new Date(expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);

    const first = await verify(token);
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({ id: v.userId, email: v.email });
    expect([first.headers['set-cookie']].flat().some((c) => c?.startsWith('__admin_session='))).toBe(true);

    // Single use: a replay is refused with a clear message, never a 5xx.
    const replay = await verify(token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'sign_in_link_used', message: signInLinkUsedText });
  });

  it('refuses an expired or unknown token with the same clear message', async () => {
    const v = await visitable();
    const { token } = (await v.join(v.library.id, { reason: VISIT_REASONS[3] })).json() as { token: string };
    await t.app.db.updateTable('verification').set({ expiresAt: new Date(Date.now() - 1000) }).where('identifier', 'like', 'one-time-token:%').execute();
    const expired = await verify(token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'sign_in_link_used', message: signInLinkUsedText });
    for (const bad of ['not-a-token', 'x'.repeat(5000)]) {
      const res = await verify(bad);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
  });

  it('a repeat visit (no reason) answers a new link of its own', async () => {
    const v = await visitable();
    const first = (await v.join(v.library.id, { reason: VISIT_REASONS[0] })).json() as { token: string };
    const again = (await v.join(v.library.id, {})).json() as { token: string };
    expect(again.token).not.toBe(first.token);
    expect((await verify(again.token)).statusCode).toBe(200);
    expect((await verify(first.token)).statusCode).toBe(200);
  });
});

describe('a provider-staff visit', () => {
  it('does not make support staff one of the school’s teachers: not listed, not counted, not exported, no seat', async () => {
    const staffEmail = `support-${crypto.randomUUID().slice(0, 8)}@quire.app`;
    const admin = await orgWithAdmin(t.app, { visit_libraries: true }, staffEmail);
    await t.app.db.updateTable('user').set({ name: 'Quire Support' }).where('email', '=', staffEmail).execute();
    const license = await buildLicense(t.app.db, { organisationId: admin.orgId, apply_to_all: true, quantity: 5 });
    const teacher = await buildTeacher(t.app.db, { organisationId: admin.orgId, email: `kim-${admin.orgId.slice(0, 8)}@school.org` });
    const library = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'Science' });
    const listed = async () =>
      (await t.app.inject({ url: `${orgPath(admin.orgId)}/members/teachers?page=1&pageSize=100`, headers: admin.headers })).json() as {
        members: Array<{ email: string }>;
        total: number;
      };
    const before = await listed();
    const authors = async () =>
      ((await t.app.inject({ url: `/api/${teacher.id}?organisationId=${admin.orgId}`, headers: admin.headers })).json() as { unarchived: Array<{ userCount: number }> })
        .unarchived[0]?.userCount;
    const authorsBefore = await authors();

    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${teacher.id}/admins/${library.id}/join?organisationId=${admin.orgId}`,
      headers: admin.headers,
      payload: { reason: VISIT_REASONS[5] },
    });
    expect(res.statusCode).toBe(200);
    // The visit itself works: staff are in the library, so the product lets them help.
    expect((await t.app.inject({ url: `/api/${teacher.id}?organisationId=${admin.orgId}`, headers: admin.headers })).json().unarchived[0].joined).toBe(true);

    // Not in the Teachers list (either tab), not in its count, not in the export.
    const after = await listed();
    expect(after.total).toBe(before.total);
    expect(after.members.map((m) => m.email)).not.toContain(staffEmail);
    const inactive = (await t.app.inject({ url: `${orgPath(admin.orgId)}/members/inactive-teachers`, headers: admin.headers })).json() as { total: number };
    expect(inactive.total).toBe(0);
    const csv = await t.app.inject({ url: `${orgPath(admin.orgId)}/members/teachers/export.csv`, headers: admin.headers });
    expect(csv.body).not.toContain(staffEmail);
    expect(csv.body).not.toContain('Quire Support');
    // No licence seat: the apply-to-all licence's allocation is unchanged.
    const org = await graphql<{ getOrganisationById: { licenses: Array<{ id: string; allocated: number }> } }>(
      t.app,
      admin.headers,
      'query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { licenses { id allocated } } }',
      { id: admin.orgId },
    );
    expect(org.data?.getOrganisationById.licenses.find((l) => l.id === license.id)?.allocated).toBe(0);
    // Not one of the library's authors either.
    expect(await authors()).toBe(authorsBefore);

    // Nor a teacher a licence or another teacher's libraries can be given to.
    const staff = await t.app.db.selectFrom('members').select('id').where('organisation_id', '=', admin.orgId).where('email', '=', staffEmail).executeTakeFirstOrThrow();
    const other = await buildLicense(t.app.db, { organisationId: admin.orgId, quantity: 5 });
    const put = await t.app.inject({ method: 'PUT', url: `${orgPath(admin.orgId)}/licenses/${other.id}`, headers: admin.headers, payload: [staff.id] });
    expect(put.statusCode).toBe(404);
    const reassign = await t.app.inject({
      method: 'PUT',
      url: `/api/${teacher.id}/admins/owner/all/${staff.id}/teacher?organisationId=${admin.orgId}`,
      headers: admin.headers,
    });
    expect(reassign.statusCode).toBe(404);
    expect(reassign.json().code).toBe('target_not_found');
  });

  it('at start, marks the staff members an earlier version made and frees their seat', async () => {
    const admin = await orgWithAdmin(t.app, { visit_libraries: true });
    const license = await buildLicense(t.app.db, { organisationId: admin.orgId, apply_to_all: true, quantity: 5 });
    const staff = await buildTeacher(t.app.db, { organisationId: admin.orgId, email: `support-${admin.orgId.slice(0, 8)}@quire.app`, display_name: 'Quire Support' });
    await t.app.db.updateTable('members').set({ license_id: license.id }).where('id', '=', staff.id).execute();
    const emails = async () =>
      ((await t.app.inject({ url: `${orgPath(admin.orgId)}/members/teachers`, headers: admin.headers })).json() as { members: Array<{ email: string }> }).members.map((m) => m.email);
    expect(await emails()).toContain(staff.email);

    // What the libraries plugin runs when the server starts (the domain is configuration, any case).
    expect(await markProviderStaffByDomain(t.app.db, 'Quire.App')).toBeGreaterThanOrEqual(1);
    expect(await emails()).not.toContain(staff.email);
    const member = await t.app.db.selectFrom('members').select(['is_provider_staff', 'license_id']).where('id', '=', staff.id).executeTakeFirstOrThrow();
    expect(member).toEqual({ is_provider_staff: true, license_id: null });
    expect(await markProviderStaffByDomain(t.app.db, 'quire.app')).toBe(0);
  });
});
