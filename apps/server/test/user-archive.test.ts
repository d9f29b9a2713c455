import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdmin, buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { auditActions, buildLibrary, failNextAudit, librarySnapshot } from './libraries.helpers.js';
import { libraryManagerOf, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PROVIDER_EMAIL_DOMAIN: 'quire.app' });
});
afterAll(() => t.close());

/** Provider staff may delete signed-up teachers (spec §6); others only pending ones. */
async function staffWithTeacher(options: { isDomain?: boolean } = {}) {
  const admin = await orgWithAdmin(t.app, { is_domain: options.isDomain ?? false }, `staff-${Math.random().toString(36).slice(2)}@Quire.app`);
  const license = await buildLicense(t.app.db, { organisationId: admin.orgId });
  const teacher = await buildTeacher(t.app.db, { organisationId: admin.orgId, license_id: license.id });
  const open = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'Open', books: 1, publishedBooks: 1 });
  const myBooks = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'My Books', isPrivate: true });
  const check = (teacherId = teacher.id, headers = admin.headers, orgId = admin.orgId) =>
    t.app.inject({ method: 'POST', url: `/api/admin-tools/v2/${teacherId}/users/delete-check`, headers, payload: { organisationId: orgId } });
  const archive = (teacherId = teacher.id, headers = admin.headers, orgId = admin.orgId) =>
    t.app.inject({ method: 'POST', url: `/api/admin-tools/v2/${teacherId}/users/archive`, headers, payload: { organisationId: orgId, organisationName: 'Springfield' } });
  return { ...admin, license, teacher, open, myBooks, check, archive };
}

describe('POST /api/admin-tools/v2/:teacherId/users/delete-check', () => {
  it('says a teacher can be deleted by provider staff and how many libraries will close', async () => {
    const f = await staffWithTeacher();
    const res = await f.check();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ canDelete: true, reasons: [], ownedLibraries: 2 });
  });

  it('says why not: yourself, an admin, a signed-up teacher for a non-staff admin, a domain organisation', async () => {
    const f = await staffWithTeacher();
    const self = await buildTeacher(t.app.db, { organisationId: f.orgId, email: f.email, user_id: f.userId });
    expect((await f.check(self.id)).json().reasons).toEqual(["You can't delete your own account", 'This teacher is an admin of the organisation: remove them from the admins first']);

    const plain = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: plain.orgId });
    const pending = await buildTeacher(t.app.db, { organisationId: plain.orgId, pending: true, role: -600 });
    const asPlain = (id: string) => f.check(id, plain.headers, plain.orgId);
    expect((await asPlain(teacher.id)).json()).toMatchObject({ canDelete: false, reasons: ['Only pending teachers can be removed from this organisation'] });
    expect((await asPlain(pending.id)).json().canDelete).toBe(true);

    const domain = await orgWithAdmin(t.app, { is_domain: true });
    const inDomain = await buildTeacher(t.app.db, { organisationId: domain.orgId, pending: true, role: -600 });
    expect((await f.check(inDomain.id, domain.headers, domain.orgId)).json().reasons).toEqual(['Teachers cannot be removed from a domain organisation']);
  });
});

describe('POST /api/admin-tools/v2/:teacherId/users/archive', () => {
  it('removes the teacher from the organisation, frees the licence and closes the remaining libraries', async () => {
    const f = await staffWithTeacher();
    const res = await f.archive();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ memberId: f.teacher.id, freedLicenseId: f.license.id });
    expect(body.archivedLibraryIds.sort()).toEqual([f.open.id, f.myBooks.id].sort());
    const member = await t.app.db.selectFrom('members').selectAll().where('id', '=', f.teacher.id).executeTakeFirstOrThrow();
    expect(member.revoked_at).not.toBeNull();
    expect(member.license_id).toBeNull();
    // The Inactive tab shows them with the Removed date.
    const inactive = (await t.app.inject({ url: `/payments/v1/admin/organisations/${f.orgId}/members/inactive-teachers`, headers: f.headers })).json();
    expect(inactive.members.map((m: { id: string }) => m.id)).toContain(f.teacher.id);
    const [audit] = await auditActions(t.app.db, f.orgId, 'members.archive');
    expect(audit?.details).toMatchObject({ organisationName: 'Springfield', freedLicenseId: f.license.id });
    // A second call finds them removed already.
    const again = await f.archive();
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This teacher has already been removed from the organisation');
  });

  it('refuses with the reasons, and changes nothing when it fails part-way', async () => {
    const f = await staffWithTeacher();
    await buildAdmin(t.app.db, { organisationId: f.orgId, email: f.teacher.email, withUser: false });
    const refused = await f.archive();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'cannot_delete', message: 'This teacher is an admin of the organisation: remove them from the admins first' });

    const g = await staffWithTeacher();
    const before = await librarySnapshot(t.app.db, [g.open.id, g.myBooks.id]);
    const restore = await failNextAudit(t.app.db, 'members.archive');
    try {
      expect((await g.archive()).statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await librarySnapshot(t.app.db, [g.open.id, g.myBooks.id])).toEqual(before);
    const member = await t.app.db.selectFrom('members').selectAll().where('id', '=', g.teacher.id).executeTakeFirstOrThrow();
    expect(member).toMatchObject({ revoked_at: null, license_id: g.license.id });
  });

  it('moves the shared libraries and removes the teacher in one step: all of it, or nothing', async () => {
    const f = await staffWithTeacher();
    const colleague = await buildTeacher(t.app.db, { organisationId: f.orgId });
    const withLibraries = (libraries: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin-tools/v2/${f.teacher.id}/users/archive`,
        headers: f.headers,
        payload: { organisationId: f.orgId, organisationName: 'Springfield', libraries },
      });
    const before = await librarySnapshot(t.app.db, [f.open.id, f.myBooks.id]);
    const restore = await failNextAudit(t.app.db, 'members.archive');
    try {
      expect((await withLibraries({ action: 'teacher', newOwnerId: colleague.id })).statusCode).toBe(500);
    } finally {
      await restore();
    }
    // The last step failed: the libraries did not move and the teacher is still active.
    expect(await librarySnapshot(t.app.db, [f.open.id, f.myBooks.id])).toEqual(before);
    expect((await t.app.db.selectFrom('members').select('revoked_at').where('id', '=', f.teacher.id).executeTakeFirstOrThrow()).revoked_at).toBeNull();
    // A refused target changes nothing either.
    expect((await withLibraries({ action: 'teacher', newOwnerId: f.teacher.id })).statusCode).toBe(400);
    expect((await t.app.db.selectFrom('members').select('revoked_at').where('id', '=', f.teacher.id).executeTakeFirstOrThrow()).revoked_at).toBeNull();

    const done = await withLibraries({ action: 'teacher', newOwnerId: colleague.id });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ transferredLibraryIds: [f.open.id], archivedLibraryIds: [f.myBooks.id] });
    const after = await librarySnapshot(t.app.db, [f.open.id, f.myBooks.id]);
    expect(after.find((l) => l.id === f.open.id)).toMatchObject({ owner_member_id: colleague.id, archived_at: null });
    // My Books is archived with the account, never handed over.
    expect(after.find((l) => l.id === f.myBooks.id)).toMatchObject({ owner_member_id: f.teacher.id, is_private: true });
    expect(after.find((l) => l.id === f.myBooks.id)?.archived_at).not.toBeNull();
    expect((await t.app.db.selectFrom('members').select('revoked_at').where('id', '=', f.teacher.id).executeTakeFirstOrThrow()).revoked_at).not.toBeNull();
  });
});

describe.each(['check', 'archive'] as const)('%s: who may call it', (call) => {
  it('refuses admins of other organisations and library managers, and changes nothing', async () => {
    const f = await staffWithTeacher();
    const other = await orgWithAdmin(t.app);
    expect((await f[call](f.teacher.id, other.headers)).statusCode).toBe(403);
    expect((await f[call](f.teacher.id, other.headers, other.orgId)).statusCode).toBe(404);
    expect((await f[call](f.teacher.id, await libraryManagerOf(t.app, f.orgId))).statusCode).toBe(403);
    const member = await t.app.db.selectFrom('members').select('revoked_at').where('id', '=', f.teacher.id).executeTakeFirstOrThrow();
    expect(member.revoked_at).toBeNull();
  });
});
