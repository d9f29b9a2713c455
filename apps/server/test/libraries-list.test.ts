import {
  LIBRARY_ROLE_CO_TEACHER,
  LIBRARY_ROLE_READ_ONLY,
  LIBRARY_ROLE_STUDENT,
  LIBRARY_ROLE_TEACHER,
  libraryMessages,
} from '@quire/core';
import { describe, expect, it } from 'vitest';
import { buildTeacher } from './factories.js';
import { appForFile } from './file-app.js';
import { buildLibrary } from './libraries.helpers.js';
import { libraryManagerOf, orgWithAdmin } from './teachers.helpers.js';

const t = appForFile();

/** An organisation whose teacher owns, joined and archived libraries. */
async function teacherWithLibraries() {
  const admin = await orgWithAdmin(t.app);
  const org = admin.orgId;
  const teacher = await buildTeacher(t.app.db, { organisationId: org, display_name: 'Ann Lee' });
  const colleague = await buildTeacher(t.app.db, { organisationId: org });
  const reader = await buildTeacher(t.app.db, { organisationId: org });
  const science = await buildLibrary(t.app.db, {
    organisationId: org, ownerId: teacher.id, name: 'Science', books: 3,
    members: [{ memberId: colleague.id, role: LIBRARY_ROLE_CO_TEACHER }, { memberId: reader.id, role: LIBRARY_ROLE_READ_ONLY }],
  });
  const art = await buildLibrary(t.app.db, { organisationId: org, ownerId: colleague.id, name: 'art club', books: 1, members: [{ memberId: teacher.id, role: LIBRARY_ROLE_TEACHER }] });
  const old = await buildLibrary(t.app.db, { organisationId: org, ownerId: teacher.id, name: 'Old', archived: true, books: 2 });
  const myBooks = await buildLibrary(t.app.db, { organisationId: org, ownerId: teacher.id, name: 'My Books', isPrivate: true, books: 4 });
  const unrelated = await buildLibrary(t.app.db, { organisationId: org, ownerId: colleague.id, name: 'Unrelated' });
  return { ...admin, teacher, colleague, science, art, old, myBooks, unrelated };
}

describe('GET /api/:teacherId', () => {
  it("answers the teacher's unarchived and archived libraries with counts and the teacher's role, without My Books", async () => {
    const f = await teacherWithLibraries();
    const res = await t.app.inject({ url: `/api/${f.teacher.id}?organisationId=${f.orgId}`, headers: f.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.unarchived).toEqual([
      { id: f.art.id, name: 'art club', bookCount: 1, userCount: 2, role: LIBRARY_ROLE_TEACHER, isPrivate: false, isOwner: false, ownerId: f.colleague.id, joined: false, archivedAt: null },
      // The read-only member is not an author.
      { id: f.science.id, name: 'Science', bookCount: 3, userCount: 2, role: 100, isPrivate: false, isOwner: true, ownerId: f.teacher.id, joined: false, archivedAt: null },
    ]);
    expect(body.archived).toHaveLength(1);
    expect(body.archived[0]).toMatchObject({ id: f.old.id, bookCount: 2, role: 100, isOwner: true });
    expect(body.archived[0].archivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('takes the organisation from the X-Organisation-Id header, and refuses none or two different ones', async () => {
    const f = await teacherWithLibraries();
    const byHeader = await t.app.inject({ url: `/api/${f.teacher.id}`, headers: { ...f.headers, 'x-organisation-id': f.orgId } });
    expect(byHeader.statusCode).toBe(200);
    expect(byHeader.json().unarchived).toHaveLength(2);
    const none = await t.app.inject({ url: `/api/${f.teacher.id}`, headers: f.headers });
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('organisation_required');
    const two = await t.app.inject({ url: `/api/${f.teacher.id}?organisationId=other`, headers: { ...f.headers, 'x-organisation-id': f.orgId } });
    expect(two.json().code).toBe('organisation_mismatch');
  });

  it('marks the libraries the acting admin already joined', async () => {
    const f = await teacherWithLibraries();
    const adminMember = await buildTeacher(t.app.db, { organisationId: f.orgId, email: f.email, user_id: f.userId });
    await t.app.db.insertInto('library_memberships').values({ organisation_id: f.orgId, library_id: f.science.id, member_id: adminMember.id, role: LIBRARY_ROLE_CO_TEACHER }).execute();
    const body = (await t.app.inject({ url: `/api/${f.teacher.id}?organisationId=${f.orgId}`, headers: f.headers })).json();
    expect(body.unarchived.map((l: { name: string; joined: boolean }) => [l.name, l.joined])).toEqual([['art club', false], ['Science', true]]);
  });

  it('refuses admins of other organisations: 403 for the organisation, 404 for a teacher outside theirs', async () => {
    const f = await teacherWithLibraries();
    const other = await orgWithAdmin(t.app);
    const foreignOrg = await t.app.inject({ url: `/api/${f.teacher.id}?organisationId=${f.orgId}`, headers: other.headers });
    expect(foreignOrg.statusCode).toBe(403);
    expect(foreignOrg.json()).toMatchObject({ code: 'not_authorised_user', message: libraryMessages.notAuthorisedRequestedUser });
    const ownOrg = await t.app.inject({ url: `/api/${f.teacher.id}?organisationId=${other.orgId}`, headers: other.headers });
    expect(ownOrg.statusCode).toBe(404);
    for (const relation of ['owned', 'joined']) {
      expect((await t.app.inject({ url: `/api/${f.teacher.id}/${relation}?organisationId=${f.orgId}`, headers: other.headers })).statusCode).toBe(403);
      expect((await t.app.inject({ url: `/api/${f.teacher.id}/${relation}?organisationId=${other.orgId}`, headers: other.headers })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ url: `/api/${f.teacher.id}?organisationId=${f.orgId}` })).statusCode).toBe(401);
  });

  it('lets a library manager read the lists', async () => {
    const f = await teacherWithLibraries();
    const manager = await libraryManagerOf(t.app, f.orgId);
    const res = await t.app.inject({ url: `/api/${f.teacher.id}/owned?organisationId=${f.orgId}`, headers: manager });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/:teacherId/owned and /joined', () => {
  it('answers the unarchived libraries of each relation', async () => {
    const f = await teacherWithLibraries();
    const owned = (await t.app.inject({ url: `/api/${f.teacher.id}/owned?organisationId=${f.orgId}`, headers: f.headers })).json();
    expect(owned.unarchived.map((l: { id: string }) => l.id)).toEqual([f.science.id]);
    const joined = (await t.app.inject({ url: `/api/${f.teacher.id}/joined?organisationId=${f.orgId}`, headers: f.headers })).json();
    expect(joined.unarchived.map((l: { id: string }) => l.id)).toEqual([f.art.id]);
  });

  it('lists a student-role library as joined with the student level', async () => {
    const f = await teacherWithLibraries();
    const lib = await buildLibrary(t.app.db, { organisationId: f.orgId, ownerId: f.colleague.id, name: 'Zoo', members: [{ memberId: f.teacher.id, role: LIBRARY_ROLE_STUDENT }] });
    const joined = (await t.app.inject({ url: `/api/${f.teacher.id}/joined?organisationId=${f.orgId}`, headers: f.headers })).json();
    expect(joined.unarchived.find((l: { id: string }) => l.id === lib.id)).toMatchObject({ role: LIBRARY_ROLE_STUDENT, isOwner: false });
  });
});
