import { describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { appForFile } from './file-app.js';
import { libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

const t = appForFile();

describe('POST /api/users/v2/:userId/convert-to-student', () => {
  it("switches the teacher to a student of the admin's organisation and renames their private library", async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, license_id: license.id });
    const url = `/api/users/v2/${teacher.id}/convert-to-student`;
    const res = await t.app.inject({ method: 'POST', url, headers, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ memberId: teacher.id, organisationId: orgId, isStudent: true, myBooksLibrary: { name: 'My books', created: true } });
    const list = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers`, headers });
    expect(list.json().members).toEqual([]);
    const again = await t.app.inject({ method: 'POST', url, headers, payload: { myBooksLibraryName: 'Mine' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This teacher has already been converted');
  });

  it('refuses pending teachers, library managers and admins of other organisations', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const pending = await buildTeacher(t.app.db, { organisationId: orgId, pending: true, role: -600 });
    expect((await t.app.inject({ method: 'POST', url: `/api/users/v2/${pending.id}/convert-to-student`, headers, payload: {} })).statusCode).toBe(409);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const url = `/api/users/v2/${teacher.id}/convert-to-student`;
    const manager = await libraryManagerOf(t.app, orgId);
    expect((await t.app.inject({ method: 'POST', url, headers: manager, payload: {} })).statusCode).toBe(403);
    const other = await orgWithAdmin(t.app);
    expect((await t.app.inject({ method: 'POST', url, headers: other.headers, payload: {} })).statusCode).toBe(404);
    const row = await t.app.db.selectFrom('members').select('is_student').where('id', '=', teacher.id).executeTakeFirstOrThrow();
    expect(row.is_student).toBe(false);
  });
});
