import { describe, expect, it } from 'vitest';
import { buildTeacher } from './factories.js';
import { appForFile } from './file-app.js';
import { libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

const t = appForFile();

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
      isAmbassador: false, isStudent: false, revokedAt: null, rosterRole: null,
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

  it('walks the list with cursors in both directions, the same rows as page numbers, a U+FEFF name included', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    for (let i = 0; i < 23; i++) {
      await buildTeacher(t.app.db, { organisationId: orgId, email: `c${String(i).padStart(2, '0')}@s.org`, display_name: i === 7 ? '\uFEFFZed' : `Name ${i % 5}` });
    }
    // Without a search the total comes from member_counts; with one (every row matches) the rows are counted: a short
    // search's page walks the order's index, a longer one's is taken from its matches read once.
    for (const search of ['', 'e', '%40s.org']) {
      const url = (query: string) => `${orgPath(orgId)}/members/teachers?sort=name&dir=desc&pageSize=10&search=${search}&${query}`;
      const byNumber: string[] = [];
      for (const page of [1, 2, 3]) byNumber.push(...(await t.app.inject({ url: url(`page=${page}`), headers })).json().members.map((m: { email: string }) => m.email));

      const forward: string[] = [];
      let answer = (await t.app.inject({ url: url('page=1'), headers })).json();
      expect(answer.previousCursor).toBeNull();
      for (;;) {
        forward.push(...answer.members.map((m: { email: string }) => m.email));
        if (!answer.nextCursor) break;
        answer = (await t.app.inject({ url: url(`after=${encodeURIComponent(answer.nextCursor)}`), headers })).json();
        expect(answer.total).toBe(23);
      }
      expect(forward).toEqual(byNumber);
      expect(new Set(forward).size).toBe(23);

      const backward: string[] = [];
      for (;;) {
        backward.unshift(...answer.members.map((m: { email: string }) => m.email));
        if (!answer.previousCursor) break;
        answer = (await t.app.inject({ url: url(`before=${encodeURIComponent(answer.previousCursor)}`), headers })).json();
      }
      expect(backward).toEqual(byNumber);
    }
  });

  it('refuses a cursor of another sort, a malformed one and a forged one with 400, never 500', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    for (let i = 0; i < 12; i++) await buildTeacher(t.app.db, { organisationId: orgId, email: `d${String(i).padStart(2, '0')}@s.org`, revoked_at: new Date() });
    const base = `${orgPath(orgId)}/members/inactive-teachers?pageSize=10`;
    const first = (await t.app.inject({ url: `${base}&sort=removed`, headers })).json();
    expect(first.nextCursor).toEqual(expect.any(String));
    const next = await t.app.inject({ url: `${base}&sort=removed&after=${encodeURIComponent(first.nextCursor)}`, headers });
    expect(next.json().members).toHaveLength(2);
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [first.nextCursor, 'nonsense', `removed.asc.${b64('not a date')}.${b64('d00@s.org')}`, `removed.asc.${b64('x')}.!!`]) {
      const sort = cursor === first.nextCursor ? 'email' : 'removed';
      const res = await t.app.inject({ url: `${base}&sort=${sort}&after=${encodeURIComponent(cursor)}`, headers });
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalid_cursor' });
    }
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

  it("answers a page asked the same way by two organisations' admins with each one's own teachers, and no ended session", async () => {
    // The page statement's text is built once per shape (db/statement-shapes.ts): the organisation, the search, the
    // cursor and the session are each request's own.
    const a = await orgWithAdmin(t.app);
    const b = await orgWithAdmin(t.app);
    for (const [org, prefix] of [[a, 'ann'], [b, 'bob']] as const) {
      for (let i = 0; i < 12; i++) await buildTeacher(t.app.db, { organisationId: org.orgId, email: `${prefix}${String(i).padStart(2, '0')}@shape.org` });
    }
    const emails = (res: { json(): { members: Array<{ email: string }> } }) => res.json().members.map((m) => m.email);
    for (const query of ['page=1&pageSize=10', 'page=2&pageSize=10', 'page=1&pageSize=10&search=0', 'page=2&pageSize=10&search=shape.org']) {
      const pageOfA = await t.app.inject({ url: `${orgPath(a.orgId)}/members/teachers?${query}`, headers: a.headers });
      const pageOfB = await t.app.inject({ url: `${orgPath(b.orgId)}/members/teachers?${query}`, headers: b.headers });
      expect(pageOfA.statusCode, query).toBe(200);
      expect(emails(pageOfA).length, query).toBeGreaterThan(0);
      expect(emails(pageOfA).every((e) => e.startsWith('ann')), query).toBe(true);
      expect(emails(pageOfB).every((e) => e.startsWith('bob')), query).toBe(true);
      expect(emails(pageOfB), query).toEqual(emails(pageOfA).map((e) => e.replace('ann', 'bob')));
      expect((await t.app.inject({ url: `${orgPath(a.orgId)}/members/teachers?${query}`, headers: b.headers })).statusCode, query).toBe(403);
    }
    const first = await t.app.inject({ url: `${orgPath(a.orgId)}/members/teachers?page=1&pageSize=10`, headers: a.headers });
    const next = await t.app.inject({ url: `${orgPath(a.orgId)}/members/teachers?page=2&pageSize=10&after=${encodeURIComponent(first.json().nextCursor)}`, headers: a.headers });
    expect(emails(next)).toEqual(['ann10@shape.org', 'ann11@shape.org']);
    await t.app.db.deleteFrom('session').where('userId', '=', a.userId).execute();
    expect((await t.app.inject({ url: `${orgPath(a.orgId)}/members/teachers?page=1&pageSize=10`, headers: a.headers })).statusCode).toBe(401);
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
