import { randomUUID } from 'node:crypto';
import { errorCatalogue } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInHeaders } from './auth.js';
import { buildAdmin, buildLicense, buildOrganisation, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql, orgPath } from './teachers.helpers.js';

// The district view of the Teachers list (docs/districts.md, "District views"): every teacher of the district and of
// each school under it, with the school, for the district's admins only; each change made in the teacher's own school.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const tag = () => Math.random().toString(36).slice(2, 8);

async function adminOf(orgId: string): Promise<SignedInHeaders> {
  const email = `admin-${tag()}@district.example.org`;
  await buildAdmin(t.app.db, { organisationId: orgId, email });
  return (await signIn(t.app, { email })).headers;
}

/** A district with its own teacher, two schools (the same teacher in both) and a stand-alone school. */
async function district() {
  const root = await buildOrganisation(t.app.db, { name: `Riverside ${tag()}` });
  const north = await buildOrganisation(t.app.db, { name: 'North Elementary', parent_id: root.id });
  const south = await buildOrganisation(t.app.db, { name: 'South Primary', parent_id: root.id });
  const alone = await buildOrganisation(t.app.db, { name: 'Standalone School' });
  const k = tag();
  const own = await buildTeacher(t.app.db, { organisationId: root.id, email: `coach-${k}@district.org`, display_name: 'Dana Coach' });
  const northLicense = await buildLicense(t.app.db, { organisationId: north.id, book_quota: 40 });
  const n1 = await buildTeacher(t.app.db, { organisationId: north.id, email: `ann-${k}@north.org`, display_name: 'Ann North', license_id: northLicense.id });
  const shared = `sam-${k}@both.org`;
  const n2 = await buildTeacher(t.app.db, { organisationId: north.id, email: shared, display_name: 'Sam Both' });
  const s1 = await buildTeacher(t.app.db, { organisationId: south.id, email: shared, display_name: 'Sam Both' });
  const southLicense = await buildLicense(t.app.db, { organisationId: south.id, book_quota: 200 });
  const s2 = await buildTeacher(t.app.db, { organisationId: south.id, email: `bea-${k}@south.org`, display_name: 'Bea South', license_id: southLicense.id });
  const removed = await buildTeacher(t.app.db, { organisationId: south.id, email: `gone-${k}@south.org`, revoked_at: new Date('2024-03-05T00:00:00Z') });
  const outside = await buildTeacher(t.app.db, { organisationId: alone.id, email: `out-${k}@alone.org` });
  const districtLicense = await buildLicense(t.app.db, { organisationId: root.id, book_quota: 1000, quantity: 5 });
  return { root, north, south, alone, own, n1, n2, s1, s2, removed, outside, northLicense, southLicense, districtLicense };
}

type Page = { members: Array<{ id: string; email: string; organisation?: { id: string; name: string } }>; total: number; nextCursor: string | null; previousCursor: string | null };
const list = (orgId: string, headers: SignedInHeaders, query: string, path = 'teachers') =>
  t.app.inject({ method: 'GET', url: `${orgPath(orgId)}/members/${path}?${query}`, headers });

describe('GET …/members/teachers?view=district', () => {
  it("lists the district's own teachers and every school's, each with its school, and filters by school", async () => {
    const d = await district();
    const headers = await adminOf(d.root.id);
    const res = await list(d.root.id, headers, 'view=district&page=1&pageSize=10');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page>();
    expect(page.total).toBe(5);
    expect(page.members.map((m) => [m.id, m.organisation?.name]).sort()).toEqual(
      [
        [d.own.id, d.root.name],
        [d.n1.id, 'North Elementary'],
        [d.n2.id, 'North Elementary'],
        [d.s1.id, 'South Primary'],
        [d.s2.id, 'South Primary'],
      ].sort(),
    );
    // The School filter: one organisation of the district.
    const south = (await list(d.root.id, headers, `view=district&school=${d.south.id}&page=1&pageSize=10`)).json<Page>();
    expect(south.members.map((m) => m.id).sort()).toEqual([d.s1.id, d.s2.id].sort());
    expect(south.total).toBe(2);
    // An organisation outside the district matches nobody.
    const outside = (await list(d.root.id, headers, `view=district&school=${d.alone.id}&page=1&pageSize=10`)).json<Page>();
    expect(outside).toMatchObject({ members: [], total: 0 });
    // The Inactive tab too.
    const inactive = (await list(d.root.id, headers, 'view=district&page=1&pageSize=10', 'inactive-teachers')).json<Page>();
    expect(inactive.members.map((m) => [m.id, m.organisation?.name])).toEqual([[d.removed.id, 'South Primary']]);
    // Without the view, the district's own teachers only (the organisation's list, as before), with no school.
    const own = (await list(d.root.id, headers, 'page=1&pageSize=10')).json<Page>();
    expect(own.members.map((m) => m.id)).toEqual([d.own.id]);
    expect(own.members[0]).not.toHaveProperty('organisation');
  });

  it("refuses an organisation list's cursor on the district's list (the member id is part of a district's cursor)", async () => {
    const d = await district();
    const headers = await adminOf(d.root.id);
    const own = (await list(d.root.id, headers, 'page=1&pageSize=10&sort=email')).json<Page>();
    const ownCursor = (await list(d.root.id, headers, `pageSize=10&sort=email&before=${encodeURIComponent('email.asc.YQ.YQ')}`)).json<Page>();
    expect(own.members).toHaveLength(1);
    expect(ownCursor.members).toEqual([]);
    const forged = await list(d.root.id, headers, `view=district&pageSize=10&after=${encodeURIComponent('email.asc.YQ.YQ')}`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: 'invalid_cursor' });
    // The same e-mail in two schools: both listed, one after the other.
    const emails = (await list(d.root.id, headers, 'view=district&page=1&pageSize=10&sort=email')).json<Page>().members.map((m) => m.email);
    expect(emails).toEqual([...emails].sort());
    expect(emails.filter((e) => e.startsWith('sam-'))).toHaveLength(2);
  });

  it('walks 520 district teachers by number, Next and Previous with the rows of page numbers (anchors and cursors)', async () => {
    const root = await buildOrganisation(t.app.db, { name: `Big ${tag()}` });
    const schools = [await buildOrganisation(t.app.db, { parent_id: root.id }), await buildOrganisation(t.app.db, { parent_id: root.id })];
    const rows = Array.from({ length: 520 }, (_, i) => ({
      id: randomUUID(),
      organisation_id: i < 260 ? (i % 2 === 0 ? root.id : schools[0]!.id) : schools[1]!.id,
      // Every e-mail twice (in the district or its first school, and in the second school): ties the member id breaks.
      email: `t${String(i % 260).padStart(3, '0')}@big.example.org`,
      display_name: ['Ann', 'Ben', 'Cy'][i % 3]!,
      role: 600,
      pending: i % 4 === 0,
    }));
    await t.app.db.insertInto('members').values(rows).execute();
    const headers = await adminOf(root.id);
    const ids = async (query: string) => (await list(root.id, headers, `view=district&sort=name&dir=desc&pageSize=20&${query}`)).json<Page>();
    const byNumber = new Map<number, string[]>();
    // By number twice: the first reads the list's anchors, the second pages from them.
    for (const page of [14, 3, 26, 14, 3, 26, 2]) {
      const answer = await ids(`page=${page}`);
      const got = answer.members.map((m) => m.id);
      if (byNumber.has(page)) expect(got, `page ${page}`).toEqual(byNumber.get(page));
      byNumber.set(page, got);
      expect(answer.total).toBe(520);
    }
    // Next from page 2 by cursor reaches page 3's rows.
    const second = await ids('page=2');
    const third = await ids(`page=3&after=${encodeURIComponent(second.nextCursor!)}`);
    expect(third.members.map((m) => m.id)).toEqual(byNumber.get(3));
    const back = await ids(`page=2&before=${encodeURIComponent(third.previousCursor!)}`);
    expect(back.members.map((m) => m.id)).toEqual(byNumber.get(2));
    // Every row once over all pages.
    const everyone = new Set<string>();
    for (let page = 1; page <= 26; page++) for (const m of (await ids(`page=${page}`)).members) everyone.add(m.id);
    expect(everyone.size).toBe(520);
  });

  it('sorts by School both ways: Next by cursor through every page gives the pages by number, schools in order', async () => {
    const root = await buildOrganisation(t.app.db, { name: `Middle ${tag()}` });
    const zeta = await buildOrganisation(t.app.db, { name: 'zeta Primary', parent_id: root.id });
    const alpha = await buildOrganisation(t.app.db, { name: 'Alpha Elementary', parent_id: root.id });
    const rows = Array.from({ length: 120 }, (_, i) => ({
      id: randomUUID(),
      organisation_id: [root.id, zeta.id, alpha.id][i % 3]!,
      // The same e-mails in every school: ties the member id breaks.
      email: `s${String(i % 40).padStart(2, '0')}@middle.example.org`,
      display_name: 'Sam',
      role: 600,
      pending: false,
    }));
    await t.app.db.insertInto('members').values(rows).execute();
    const headers = await adminOf(root.id);
    for (const dir of ['asc', 'desc'] as const) {
      const ask = async (query: string) => (await list(root.id, headers, `view=district&sort=school&dir=${dir}&pageSize=20&${query}`)).json<Page>();
      const byNumber: string[] = [];
      const byCursor: string[] = [];
      const schools: string[] = [];
      for (let page = 1; page <= 6; page++) byNumber.push(...(await ask(`page=${page}`)).members.map((m) => m.id));
      let answer = await ask('page=1');
      for (;;) {
        byCursor.push(...answer.members.map((m) => m.id));
        schools.push(...answer.members.map((m) => m.organisation?.name ?? ''));
        if (!answer.nextCursor) break;
        answer = await ask(`after=${encodeURIComponent(answer.nextCursor)}`);
      }
      expect(byCursor, dir).toEqual(byNumber);
      expect(new Set(byCursor).size).toBe(120);
      const order = [alpha.name, root.name, zeta.name];
      const expected = (dir === 'asc' ? order : order.reverse()).flatMap((name) => schools.filter((s) => s === name));
      expect(schools, dir).toEqual(expected);
    }
  });

  it("is for the district's admins: a school admin gets the forbidden organisation's answer, a library manager 403", async () => {
    const d = await district();
    const schoolAdmin = await adminOf(d.north.id);
    const refused = await list(d.root.id, schoolAdmin, 'view=district&page=1&pageSize=10');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 'organisation_forbidden', message: errorCatalogue.organisation_forbidden.message });
    // Their own school's district view is their school alone; a sibling named as the School matches nobody.
    const own = (await list(d.north.id, schoolAdmin, 'view=district&page=1&pageSize=10')).json<Page>();
    expect(own.members.map((m) => m.id).sort()).toEqual([d.n1.id, d.n2.id].sort());
    const sibling = (await list(d.north.id, schoolAdmin, `view=district&school=${d.south.id}&page=1&pageSize=10`)).json<Page>();
    expect(sibling).toMatchObject({ members: [], total: 0 });
    const exported = await t.app.inject({ method: 'GET', url: `${orgPath(d.root.id)}/members/teachers/export.csv?view=district`, headers: schoolAdmin });
    expect(exported.statusCode).toBe(403);

    await t.app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', d.root.id).execute();
    const manager = await buildTeacher(t.app.db, { organisationId: d.root.id, role: 400, email: `lm-${tag()}@district.org` });
    const managerHeaders = (await signIn(t.app, { email: manager.email })).headers;
    const forManager = await list(d.root.id, managerHeaders, 'view=district&page=1&pageSize=10');
    expect(forManager.statusCode).toBe(403);
    expect(forManager.json()).toMatchObject({ code: 'admin_required' });
    // Their own organisation's list stays theirs to read.
    expect((await list(d.root.id, managerHeaders, 'page=1&pageSize=10')).statusCode).toBe(200);
  });

  it('exports one CSV with a School column', async () => {
    const d = await district();
    const headers = await adminOf(d.root.id);
    const res = await t.app.inject({ method: 'GET', url: `${orgPath(d.root.id)}/members/teachers/export.csv?view=district&sort=name`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Email,Name,School,Signed up,License,Certification');
    expect(lines.slice(1)).toEqual([
      `${d.n1.email},Ann North,North Elementary,Yes,40 books,`,
      `${d.s2.email},Bea South,South Primary,Yes,200 books,`,
      `${d.own.email},Dana Coach,${d.root.name},Yes,,`,
      ...[`${d.n2.email},Sam Both,North Elementary,Yes,,`, `${d.s1.email},Sam Both,South Primary,Yes,,`].sort((a, b) =>
        (a.includes('North') ? d.n2.id : d.s1.id).localeCompare(b.includes('North') ? d.n2.id : d.s1.id),
      ),
    ]);
    const south = await t.app.inject({ method: 'GET', url: `${orgPath(d.root.id)}/members/teachers/export.csv?view=district&school=${d.south.id}&status=inactive`, headers });
    expect(south.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual(['Email,Name,School,Removed,Certification', `${d.removed.email},${d.removed.display_name},South Primary,5th March 2024,`]);
    // The page shown, by number.
    const page = await t.app.inject({ method: 'GET', url: `${orgPath(d.root.id)}/members/teachers/export.csv?view=district&scope=page&page=1&pageSize=10`, headers });
    expect(page.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toHaveLength(6);
  });
});

describe('changes from the district view', () => {
  const bulk = (orgId: string, headers: SignedInHeaders, payload: object) =>
    t.app.inject({ method: 'POST', url: `${orgPath(orgId)}/members/teachers/bulk`, headers, payload });

  it("removes licences across schools, each in its own school, and gives the district's licence only to its own teachers", async () => {
    const d = await district();
    const headers = await adminOf(d.root.id);
    const removed = await bulk(d.root.id, headers, { action: 'remove-license', selection: { filter: { view: 'district' }, expectedCount: 5 } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ matched: 5, changed: 2 });
    const after = await t.app.db.selectFrom('members').select(['id', 'license_id']).where('id', 'in', [d.n1.id, d.s2.id]).execute();
    expect(after.map((m) => m.license_id)).toEqual([null, null]);
    const audits = await t.app.db.selectFrom('audit_events').select('organisation_id').where('action', '=', 'licenses.remove').where('organisation_id', 'in', [d.north.id, d.south.id, d.root.id]).execute();
    // Each school's change is recorded in that school (and the district's own, where no licence was held).
    expect(audits.map((a) => a.organisation_id).sort()).toEqual([d.north.id, d.south.id, d.root.id].sort());

    const across = await bulk(d.root.id, headers, { action: 'assign-license', licenseId: d.districtLicense.id, selection: { filter: { view: 'district' }, expectedCount: 5 } });
    expect(across.statusCode).toBe(409);
    expect(across.json()).toEqual({ code: 'license_other_schools', message: errorCatalogue.license_other_schools.message });
    expect((await t.app.db.selectFrom('members').select('license_id').where('id', '=', d.own.id).executeTakeFirstOrThrow()).license_id).toBeNull();

    const own = await bulk(d.root.id, headers, {
      action: 'assign-license', licenseId: d.districtLicense.id, selection: { filter: { view: 'district', school: d.root.id }, expectedCount: 1 },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ matched: 1, changed: 1 });
  });

  it('refuses a district-wide removal that reaches a domain school, changing nothing', async () => {
    const d = await district();
    await t.app.db.updateTable('organisations').set({ is_domain: true }).where('id', '=', d.south.id).execute();
    const headers = await adminOf(d.root.id);
    const res = await bulk(d.root.id, headers, { action: 'remove-license', selection: { filter: { view: 'district' }, expectedCount: 5 } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'domain_organisation' });
    expect((await t.app.db.selectFrom('members').select('license_id').where('id', '=', d.n1.id).executeTakeFirstOrThrow()).license_id).toBe(d.northLicense.id);
  });

  it("gives a school admin 404 for a sibling school's teacher ids, whatever the route", async () => {
    const d = await district();
    const headers = await adminOf(d.north.id);
    const sibling = d.s2.id;
    const mutations: Array<[string, Record<string, unknown>]> = [
      ['mutation m($orgId: ID!, $ids: [ID!]!) { removeLicenses(orgId: $orgId, memberIds: $ids) { memberIds } }', { ids: [sibling] }],
      ['mutation m($orgId: ID!, $ids: [ID!]!) { revokeMembership(orgId: $orgId, memberIds: $ids) { memberIds } }', { ids: [sibling] }],
      ['mutation m($orgId: ID!, $ids: [ID!]!) { grantMembership(orgId: $orgId, memberIds: $ids) { memberIds } }', { ids: [d.removed.id] }],
      ['mutation m($orgId: ID!, $id: ID!) { updateMembershipRole(orgId: $orgId, userId: $id, role: 400) { role } }', { id: sibling }],
      ['mutation m($orgId: ID!, $ids: [ID!]!, $lic: ID!) { assignLicenses(orgId: $orgId, licenseId: $lic, memberIds: $ids) { allocated } }', { ids: [sibling], lic: d.northLicense.id }],
    ];
    await t.app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', d.north.id).execute();
    for (const [query, variables] of mutations) {
      const answer = await graphql(t.app, headers, query, { orgId: d.north.id, ...variables });
      expect(answer.errors?.[0]?.extensions?.code, query).toBe('teacher_not_found');
    }
    const counts = await t.app.inject({ method: 'GET', url: `${orgPath(d.north.id)}/members/${sibling}/book-counts`, headers });
    expect(counts.statusCode).toBe(404);
    const put = await t.app.inject({ method: 'PUT', url: `${orgPath(d.north.id)}/licenses/${d.northLicense.id}`, headers, payload: [sibling] });
    expect(put.statusCode).toBe(404);
    // The sibling's own paths: the organisation is forbidden.
    const theirs = await list(d.south.id, headers, 'view=district&page=1&pageSize=10');
    expect(theirs.statusCode).toBe(403);
    const theirBulk = await bulk(d.south.id, headers, { action: 'remove-license', selection: { filter: { view: 'district' }, expectedCount: 2 } });
    expect(theirBulk.statusCode).toBe(403);
    // Nothing changed.
    expect((await t.app.db.selectFrom('members').select(['license_id', 'revoked_at']).where('id', '=', sibling).executeTakeFirstOrThrow())).toEqual({ license_id: d.southLicense.id, revoked_at: null });
  });
});
