import { LIBRARY_ROLE_CO_TEACHER, LIBRARY_ROLE_OWNER } from '@quire/core';
import { describe, expect, it } from 'vitest';
import { buildAdmin, buildLicense, buildTeacher, buildUser } from './factories.js';
import { appForFile } from './file-app.js';
import { auditActions, buildLibrary, failNextAudit, librarySnapshot, membershipsOf } from './libraries.helpers.js';
import { libraryManagerOf, orgWithAdmin } from './teachers.helpers.js';

const t = appForFile();

async function leavingTeacher() {
  const admin = await orgWithAdmin(t.app);
  const teacher = await buildTeacher(t.app.db, { organisationId: admin.orgId, display_name: 'Ann Lee' });
  const target = await buildTeacher(t.app.db, { organisationId: admin.orgId });
  const science = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'Science', books: 2, publishedBooks: 1 });
  const history = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'History', members: [{ memberId: target.id, role: 600 }] });
  const old = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'Old', archived: true });
  const myBooks = await buildLibrary(t.app.db, { organisationId: admin.orgId, ownerId: teacher.id, name: 'My Books', isPrivate: true });
  const ids = [science.id, history.id, old.id, myBooks.id];
  const reassign = (newOwnerId: string, type: string, headers = admin.headers, orgId = admin.orgId) =>
    t.app.inject({ method: 'PUT', url: `/api/${teacher.id}/admins/owner/all/${encodeURIComponent(newOwnerId)}/${type}?organisationId=${orgId}`, headers });
  const archiveAll = (headers = admin.headers, orgId = admin.orgId) =>
    t.app.inject({ method: 'POST', url: `/api/${teacher.id}/admins/archive/all`, headers, payload: { organisationId: orgId } });
  return { ...admin, teacher, target, science, history, old, myBooks, ids, reassign, archiveAll };
}

describe('PUT /api/:teacherId/admins/owner/all/:newOwnerId/:type', () => {
  it('moves every shared library to the teacher, makes them owner and keeps the previous owner as co-teacher', async () => {
    const f = await leavingTeacher();
    const res = await f.reassign(f.target.id, 'teacher');
    expect(res.statusCode).toBe(200);
    const shared = [f.science.id, f.history.id, f.old.id];
    expect(res.json().libraryIds.sort()).toEqual([...shared].sort());
    expect(res.json().newOwner).toMatchObject({ memberId: f.target.id, createdMember: false });
    const after = await librarySnapshot(t.app.db, f.ids);
    expect(after.filter((l) => shared.includes(l.id)).every((l) => l.owner_member_id === f.target.id)).toBe(true);
    // My Books is private (spec §3): it is never handed over; it stays the teacher's, private and unrenamed.
    expect(after.find((l) => l.id === f.myBooks.id)).toMatchObject({ owner_member_id: f.teacher.id, is_private: true, name: 'My Books', archived_at: null });
    expect(after.find((l) => l.id === f.old.id)?.archived_at).not.toBeNull();
    expect(await membershipsOf(t.app.db, f.history.id)).toEqual(
      [{ member_id: f.teacher.id, role: LIBRARY_ROLE_CO_TEACHER }, { member_id: f.target.id, role: LIBRARY_ROLE_OWNER }].sort((a, b) => a.member_id.localeCompare(b.member_id)),
    );
    expect(await membershipsOf(t.app.db, f.myBooks.id)).not.toContainEqual(expect.objectContaining({ member_id: f.target.id }));
    const [audit] = await auditActions(t.app.db, f.orgId, 'libraries.reassign');
    expect(audit?.details).toMatchObject({ from: f.teacher.id, to: f.target.id, type: 'teacher' });
    const owned = (await t.app.inject({ url: `/api/${f.target.id}/owned?organisationId=${f.orgId}`, headers: f.headers })).json();
    expect(owned.unarchived.map((l: { name: string }) => l.name)).toEqual(['History', 'Science']);
  });

  it('refuses the teacher themselves, pending, removed and unknown targets, and an unknown type', async () => {
    const f = await leavingTeacher();
    expect((await f.reassign(f.teacher.id, 'teacher')).json().code).toBe('same_owner');
    const pending = await buildTeacher(t.app.db, { organisationId: f.orgId, pending: true, role: -600 });
    expect((await f.reassign(pending.id, 'teacher')).json()).toMatchObject({ code: 'target_pending' });
    const removed = await buildTeacher(t.app.db, { organisationId: f.orgId, revoked_at: new Date() });
    expect((await f.reassign(removed.id, 'teacher')).json().code).toBe('target_inactive');
    const elsewhere = await buildTeacher(t.app.db);
    expect((await f.reassign(elsewhere.id, 'teacher')).statusCode).toBe(404);
    expect((await f.reassign(f.target.id, 'student')).statusCode).toBe(400);
    expect((await librarySnapshot(t.app.db, f.ids)).every((l) => l.owner_member_id === f.teacher.id)).toBe(true);
  });

  it('gives the libraries to an admin by e-mail, making them a member with the apply-to-all licence', async () => {
    const f = await leavingTeacher();
    const license = await buildLicense(t.app.db, { organisationId: f.orgId, apply_to_all: true });
    const head = await buildAdmin(t.app.db, { organisationId: f.orgId, email: `head-${f.orgId.slice(0, 6)}@school.org` });
    const res = await f.reassign(head.email.toUpperCase(), 'admin');
    expect(res.statusCode).toBe(200);
    const { newOwner } = res.json();
    expect(newOwner).toMatchObject({ email: head.email, createdMember: true });
    const member = await t.app.db.selectFrom('members').selectAll().where('id', '=', newOwner.memberId).executeTakeFirstOrThrow();
    expect(member).toMatchObject({ organisation_id: f.orgId, user_id: head.user_id, pending: false, role: 600, license_id: license.id });
    const after = await librarySnapshot(t.app.db, f.ids);
    expect(after.filter((l) => l.id !== f.myBooks.id).every((l) => l.owner_member_id === member.id)).toBe(true);
    expect(after.find((l) => l.id === f.myBooks.id)).toMatchObject({ owner_member_id: f.teacher.id, is_private: true });
  });

  it('uses the existing membership of an admin who is also a teacher, and refuses a non-admin or the teacher as admin', async () => {
    const f = await leavingTeacher();
    const user = await buildUser(t.app.db);
    const both = await buildTeacher(t.app.db, { organisationId: f.orgId, email: user.email, user_id: user.id });
    await buildAdmin(t.app.db, { organisationId: f.orgId, email: user.email, userId: user.id });
    expect((await f.reassign(f.target.email, 'admin')).json().code).toBe('target_not_found');
    await buildAdmin(t.app.db, { organisationId: f.orgId, email: f.teacher.email, withUser: false });
    expect((await f.reassign(f.teacher.email, 'admin')).json().code).toBe('same_owner');
    const res = await f.reassign(user.id, 'admin');
    expect(res.json().newOwner).toMatchObject({ memberId: both.id, createdMember: false });
  });

  it('leaves every library where it was when the transfer fails part-way', async () => {
    const f = await leavingTeacher();
    const before = await librarySnapshot(t.app.db, f.ids);
    const membersBefore = await membershipsOf(t.app.db, f.history.id);
    const restore = await failNextAudit(t.app.db, 'libraries.reassign');
    try {
      const res = await f.reassign(f.target.id, 'teacher');
      expect(res.statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await librarySnapshot(t.app.db, f.ids)).toEqual(before);
    expect(await membershipsOf(t.app.db, f.history.id)).toEqual(membersBefore);
    expect((await f.reassign(f.target.id, 'teacher')).statusCode).toBe(200);
  });

  it('refuses library managers and admins of other organisations', async () => {
    const f = await leavingTeacher();
    const manager = await libraryManagerOf(t.app, f.orgId);
    expect((await f.reassign(f.target.id, 'teacher', manager)).statusCode).toBe(403);
    const other = await orgWithAdmin(t.app);
    expect((await f.reassign(f.target.id, 'teacher', other.headers)).statusCode).toBe(403);
    expect((await f.reassign(f.target.id, 'teacher', other.headers, other.orgId)).statusCode).toBe(404);
    expect((await librarySnapshot(t.app.db, f.ids)).every((l) => l.owner_member_id === f.teacher.id)).toBe(true);
  });
});

describe('POST /api/:teacherId/admins/archive/all', () => {
  it('archives every unarchived library the teacher owns and keeps books and their published flag', async () => {
    const f = await leavingTeacher();
    const res = await f.archiveAll();
    expect(res.statusCode).toBe(200);
    expect(res.json().libraryIds.sort()).toEqual([f.science.id, f.history.id, f.myBooks.id].sort());
    const list = (await t.app.inject({ url: `/api/${f.teacher.id}?organisationId=${f.orgId}`, headers: f.headers })).json();
    expect(list.unarchived).toEqual([]);
    expect(list.archived.map((l: { name: string }) => l.name)).toEqual(['History', 'Old', 'Science']);
    const books = await t.app.db.selectFrom('books').select('published').where('library_id', '=', f.science.id).orderBy('published').execute();
    expect(books.map((b) => b.published)).toEqual([false, true]);
    expect(await auditActions(t.app.db, f.orgId, 'libraries.archive')).toHaveLength(1);
    expect((await f.archiveAll()).json().libraryIds).toEqual([]);
  });

  it('archives nothing when it fails part-way, and refuses other organisations and library managers', async () => {
    const f = await leavingTeacher();
    const before = await librarySnapshot(t.app.db, f.ids);
    const restore = await failNextAudit(t.app.db, 'libraries.archive');
    try {
      expect((await f.archiveAll()).statusCode).toBe(500);
    } finally {
      await restore();
    }
    expect(await librarySnapshot(t.app.db, f.ids)).toEqual(before);
    const other = await orgWithAdmin(t.app);
    expect((await f.archiveAll(other.headers)).statusCode).toBe(403);
    expect((await f.archiveAll(other.headers, other.orgId)).statusCode).toBe(404);
    expect((await f.archiveAll(await libraryManagerOf(t.app, f.orgId))).statusCode).toBe(403);
    expect(await librarySnapshot(t.app.db, f.ids)).toEqual(before);
  });
});
