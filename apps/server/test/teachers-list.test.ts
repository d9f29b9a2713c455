import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET …/members/teachers and …/members/inactive-teachers', () => {
  it('answers the full list by default, and one page with its total when asked', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    for (const [email, name] of [['cara@s.org', 'Cara Ode'], ['abe@s.org', 'Abe Zane'], ['bea@s.org', 'Bea Young']]) {
      await buildTeacher(t.app.db, { organisationId: orgId, email, display_name: name! });
    }
    await buildTeacher(t.app.db, { organisationId: orgId, email: 'gone@s.org', revoked_at: new Date('2024-03-05T10:00:00Z') });

    const full = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers`, headers });
    expect(full.statusCode).toBe(200);
    expect(full.json().members.map((m: { email: string }) => m.email)).toEqual(['abe@s.org', 'bea@s.org', 'cara@s.org']);
    expect(full.json().members[0]).toMatchObject({
      displayName: 'Abe Zane', role: 600, license: null, pending: false, badges: { calevel1: null, calevel2: null },
      isAmbassador: false, isStudent: false, revokedAt: null,
    });

    const page = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers?sort=name&dir=desc&page=1&pageSize=10&search=E`, headers });
    expect(page.json()).toMatchObject({ total: 3, page: 1, pageSize: 10 });
    expect(page.json().members.map((m: { displayName: string }) => m.displayName)).toEqual(['Cara Ode', 'Bea Young', 'Abe Zane']);

    const search = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers?search=YOUNG`, headers });
    expect(search.json().members.map((m: { email: string }) => m.email)).toEqual(['bea@s.org']);

    const inactive = await t.app.inject({ url: `${orgPath(orgId)}/members/inactive-teachers`, headers });
    expect(inactive.json().members).toHaveLength(1);
    expect(inactive.json().members[0]).toMatchObject({ email: 'gone@s.org', revokedAt: '2024-03-05T10:00:00.000Z' });
  });

  it('pages without overlap and refuses a page size the console does not offer', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    for (let i = 0; i < 25; i++) await buildTeacher(t.app.db, { organisationId: orgId, email: `t${String(i).padStart(2, '0')}@s.org` });
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const res = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers?page=${page}&pageSize=10`, headers });
      expect(res.json().total).toBe(25);
      seen.push(...res.json().members.map((m: { email: string }) => m.email));
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const bad = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers?pageSize=7`, headers });
    expect(bad.statusCode).toBe(400);
  });

  it('lets a library manager read, and refuses admins of another organisation and anonymous callers', async () => {
    const { orgId } = await orgWithAdmin(t.app);
    await buildTeacher(t.app.db, { organisationId: orgId });
    const manager = await libraryManagerOf(t.app, orgId);
    expect((await t.app.inject({ url: `${orgPath(orgId)}/members/teachers`, headers: manager })).statusCode).toBe(200);
    const other = await orgWithAdmin(t.app);
    for (const path of ['members/teachers', 'members/inactive-teachers']) {
      expect((await t.app.inject({ url: `${orgPath(orgId)}/${path}`, headers: other.headers })).statusCode).toBe(403);
      expect((await t.app.inject({ url: `${orgPath(orgId)}/${path}` })).statusCode).toBe(401);
    }
  });
});

describe('GET …/members/:teacherId/book-counts', () => {
  it("counts books in the teacher's own libraries, private apart, and hides other organisations' teachers", async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const libs = [
      { id: `${teacher.id}-a`, is_private: false, books: 3 },
      { id: `${teacher.id}-p`, is_private: true, books: 2 },
    ];
    for (const lib of libs) {
      await t.app.db.insertInto('libraries').values({ id: lib.id, organisation_id: orgId, owner_member_id: teacher.id, name: lib.id, is_private: lib.is_private }).execute();
      for (let i = 0; i < lib.books; i++) {
        await t.app.db.insertInto('books').values({ id: `${lib.id}-${i}`, organisation_id: orgId, library_id: lib.id, title: `Book ${i}` }).execute();
      }
    }
    const res = await t.app.inject({ url: `${orgPath(orgId)}/members/${teacher.id}/book-counts`, headers });
    expect(res.json()).toEqual({ owned: 3, private: 2, total: 5 });

    const other = await orgWithAdmin(t.app);
    expect((await t.app.inject({ url: `${orgPath(orgId)}/members/${teacher.id}/book-counts`, headers: other.headers })).statusCode).toBe(403);
    // Through their own organisation's path the teacher simply does not exist.
    expect((await t.app.inject({ url: `${orgPath(other.orgId)}/members/${teacher.id}/book-counts`, headers: other.headers })).statusCode).toBe(404);
  });
});
