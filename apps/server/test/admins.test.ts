import { authMessages, validationMessages } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './auth.js';
import { buildAdmin, buildTeacher, buildUser } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { auditActions } from './libraries.helpers.js';
import { graphql, libraryManagerOf, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PROVIDER_EMAIL_DOMAIN: 'quire.app', PRODUCT_NAME: 'Quire' });
});
afterAll(() => t.close());

const IMPORT = 'mutation($orgId: ID!, $emails: [String!]!) { importAdmins(orgId: $orgId, emails: $emails) { added existing } }';
const DELETE = 'mutation($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }';
const LIST = `query($orgId: ID!, $search: String, $sort: String, $dir: String, $page: Int, $pageSize: Int) {
  getAdmins(orgId: $orgId, search: $search, sort: $sort, dir: $dir, page: $page, pageSize: $pageSize) {
    total page pageSize admins { email organisationId organisationName userId memberId displayName isYou }
  }
}`;

interface ListAnswer {
  getAdmins: {
    total: number;
    admins: Array<{ email: string; organisationName: string; displayName: string | null; isYou: boolean; memberId: string | null; userId: string | null }>;
  };
}

describe('importAdmins', () => {
  it('adds admins by e-mail (normalised, deduplicated), links existing users and audits the change', async () => {
    const a = await orgWithAdmin(t.app);
    const user = await buildUser(t.app.db, { email: `known-${a.orgId.slice(0, 6)}@school.org` });
    const res = await graphql<{ importAdmins: { added: string[]; existing: string[] } }>(t.app, a.headers, IMPORT, {
      orgId: a.orgId, emails: [` ${user.email.toUpperCase()} `, 'new@school.org', 'new@school.org', a.email],
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.importAdmins).toEqual({ added: [user.email, 'new@school.org'].sort(), existing: [a.email] });
    const row = await t.app.db.selectFrom('admins').selectAll().where('organisation_id', '=', a.orgId).where('email', '=', user.email).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(user.id);
    expect((await auditActions(t.app.db, a.orgId, 'admins.import'))[0]?.target_ids.sort()).toEqual([user.email, 'new@school.org'].sort());
    // The new admin can now open the organisation.
    const { headers } = await signIn(t.app, { email: user.email });
    expect((await graphql(t.app, headers, LIST, { orgId: a.orgId })).errors).toBeUndefined();
  });

  it("refuses provider addresses in any case, invalid addresses and an empty list, adding nothing", async () => {
    const a = await orgWithAdmin(t.app);
    const staff = await graphql(t.app, a.headers, IMPORT, { orgId: a.orgId, emails: ['ok@school.org', 'Someone@QUIRE.App'] });
    expect(staff.errors?.[0]).toMatchObject({ message: "Quire users can't be added as admins", extensions: { code: 'provider_email', statusCode: 400 } });
    const invalid = await graphql(t.app, a.headers, IMPORT, { orgId: a.orgId, emails: ['ok@school.org', 'not-an-email'] });
    expect(invalid.errors?.[0]).toMatchObject({ message: validationMessages.emailInvalid, extensions: { code: 'invalid_email', invalidEmails: ['not-an-email'] } });
    const empty = await graphql(t.app, a.headers, IMPORT, { orgId: a.orgId, emails: [' '] });
    expect(empty.errors?.[0]?.message).toBe(validationMessages.emailRequired);
    const admins = await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', a.orgId).execute();
    expect(admins.map((r) => r.email)).toEqual([a.email]);
  });

  it("refuses the provider's subdomains and district-SSO addresses with the spec's messages, adding nothing", async () => {
    const a = await orgWithAdmin(t.app);
    for (const email of ['x@sub.quire.app', 'Y@Deep.Sub.QUIRE.app']) {
      const staff = await graphql(t.app, a.headers, IMPORT, { orgId: a.orgId, emails: ['ok@school.org', email] });
      expect(staff.errors?.[0], email).toMatchObject({ message: "Quire users can't be added as admins", extensions: { code: 'provider_email', statusCode: 400 } });
    }
    // DISTRICT_SSO_DOMAINS' default names two domains; their subdomains too, in any case.
    for (const email of ['t@schools.example-district.org', 'S@Students.Example-District.org', 'u@east.schools.example-district.org']) {
      const district = await graphql(t.app, a.headers, IMPORT, { orgId: a.orgId, emails: [email] });
      expect(district.errors?.[0], email).toMatchObject({ message: authMessages.districtSso, extensions: { code: 'district_sso', statusCode: 400 } });
    }
    // A domain that merely ends the same way is someone else's.
    const lookalike = await graphql<{ importAdmins: { added: string[] } }>(t.app, a.headers, IMPORT, { orgId: a.orgId, emails: ['z@notquire.app'] });
    expect(lookalike.data?.importAdmins.added).toEqual(['z@notquire.app']);
    const admins = await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', a.orgId).execute();
    expect(admins.map((r) => r.email).sort()).toEqual([a.email, 'z@notquire.app'].sort());
  });

  it('refuses admins of other organisations and library managers', async () => {
    const a = await orgWithAdmin(t.app);
    const other = await orgWithAdmin(t.app);
    const res = await graphql(t.app, other.headers, IMPORT, { orgId: a.orgId, emails: ['x@school.org'] });
    expect(res.errors?.[0]?.extensions?.statusCode).toBe(403);
    const manager = await libraryManagerOf(t.app, a.orgId);
    expect((await graphql(t.app, manager, IMPORT, { orgId: a.orgId, emails: ['x@school.org'] })).errors?.[0]?.extensions?.code).toBe('admin_required');
    expect(await t.app.db.selectFrom('admins').select('email').where('email', '=', 'x@school.org').execute()).toEqual([]);
  });
});

describe('deleteAdmins', () => {
  it('removes admins, yourself included while another admin remains, and audits it', async () => {
    const a = await orgWithAdmin(t.app);
    await buildAdmin(t.app.db, { organisationId: a.orgId, email: `two-${a.orgId.slice(0, 6)}@school.org` });
    const three = await buildAdmin(t.app.db, { organisationId: a.orgId, email: `three-${a.orgId.slice(0, 6)}@school.org` });
    const res = await graphql<{ deleteAdmins: { removed: string[] } }>(t.app, a.headers, DELETE, { orgId: a.orgId, emails: [three.email.toUpperCase(), 'nobody@school.org'] });
    expect(res.data?.deleteAdmins.removed).toEqual([three.email]);
    const self = await graphql<{ deleteAdmins: { removed: string[] } }>(t.app, a.headers, DELETE, { orgId: a.orgId, emails: [a.email] });
    expect(self.data?.deleteAdmins.removed).toEqual([a.email]);
    expect((await auditActions(t.app.db, a.orgId, 'admins.delete')).map((e) => e.details)).toContainEqual({ removedSelf: true });
    // Removing yourself ends your access at once.
    expect((await graphql(t.app, a.headers, LIST, { orgId: a.orgId })).errors?.[0]?.extensions?.statusCode).toBe(403);
  });

  it('never removes the last admin, alone or with the others', async () => {
    const a = await orgWithAdmin(t.app);
    const last = await graphql(t.app, a.headers, DELETE, { orgId: a.orgId, emails: [a.email] });
    expect(last.errors?.[0]).toMatchObject({ extensions: { code: 'last_admin', statusCode: 409 } });
    expect(last.errors?.[0]?.message).toContain("the last admin can't be removed");
    const two = await buildAdmin(t.app.db, { organisationId: a.orgId });
    const all = await graphql(t.app, a.headers, DELETE, { orgId: a.orgId, emails: [a.email, two.email] });
    expect(all.errors?.[0]?.extensions?.code).toBe('last_admin');
    expect(await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', a.orgId).execute()).toHaveLength(2);
  });

  it("never leaves provider staff as the only admins, but lets the organisation's own admins remove them", async () => {
    const a = await orgWithAdmin(t.app);
    const staff = await buildAdmin(t.app.db, { organisationId: a.orgId, email: `support-${a.orgId.slice(0, 6)}@Quire.App` });
    const alone = await graphql(t.app, a.headers, DELETE, { orgId: a.orgId, emails: [a.email] });
    expect(alone.errors?.[0]).toMatchObject({
      message: "An organisation needs at least one admin of its own, so the last admin can't be removed. Add another admin first.",
      extensions: { code: 'last_admin', statusCode: 409 },
    });
    const removed = await graphql<{ deleteAdmins: { removed: string[] } }>(t.app, a.headers, DELETE, { orgId: a.orgId, emails: [staff.email] });
    expect(removed.data?.deleteAdmins.removed).toEqual([staff.email]);
    const left = await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', a.orgId).execute();
    expect(left.map((r) => r.email)).toEqual([a.email]);
  });

  it('keeps one admin when two admins remove each other at the same time', async () => {
    const a = await orgWithAdmin(t.app);
    const b = await buildAdmin(t.app.db, { organisationId: a.orgId });
    const bHeaders = (await signIn(t.app, { email: b.email })).headers;
    const answers = await Promise.all([
      graphql(t.app, a.headers, DELETE, { orgId: a.orgId, emails: [b.email] }),
      graphql(t.app, bHeaders, DELETE, { orgId: a.orgId, emails: [a.email] }),
    ]);
    expect(answers.filter((x) => !x.errors)).toHaveLength(1);
    expect(await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', a.orgId).execute()).toHaveLength(1);
  });

  it('refuses admins of other organisations and library managers', async () => {
    const a = await orgWithAdmin(t.app);
    const two = await buildAdmin(t.app.db, { organisationId: a.orgId });
    const other = await orgWithAdmin(t.app);
    expect((await graphql(t.app, other.headers, DELETE, { orgId: a.orgId, emails: [two.email] })).errors?.[0]?.extensions?.statusCode).toBe(403);
    const manager = await libraryManagerOf(t.app, a.orgId);
    expect((await graphql(t.app, manager, DELETE, { orgId: a.orgId, emails: [two.email] })).errors?.[0]?.extensions?.statusCode).toBe(403);
    expect(await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', a.orgId).execute()).toHaveLength(2);
  });
});

describe('getAdmins', () => {
  it('pages, searches and sorts, naming admins who are also teachers', async () => {
    const a = await orgWithAdmin(t.app, { name: 'Springfield Elementary' }, 'zed@school.org');
    const tag = a.orgId.slice(0, 6);
    for (const n of ['b', 'c', 'd']) await buildAdmin(t.app.db, { organisationId: a.orgId, email: `${n}-${tag}@school.org`, withUser: false });
    const teacher = await buildTeacher(t.app.db, { organisationId: a.orgId, email: `c-${tag}@school.org`, display_name: 'Alice Cooper' });

    const page1 = await graphql<ListAnswer>(t.app, a.headers, LIST, { orgId: a.orgId, pageSize: 10 });
    expect(page1.data?.getAdmins.total).toBe(4);
    expect(page1.data?.getAdmins.admins.map((x) => x.email)).toEqual([`b-${tag}@school.org`, `c-${tag}@school.org`, `d-${tag}@school.org`, 'zed@school.org']);
    expect(page1.data?.getAdmins.admins[1]).toMatchObject({ displayName: 'Alice Cooper', memberId: teacher.id, organisationName: 'Springfield Elementary', isYou: false });
    expect(page1.data?.getAdmins.admins[3]).toMatchObject({ isYou: true, userId: a.userId });

    const byName = await graphql<ListAnswer>(t.app, a.headers, LIST, { orgId: a.orgId, sort: 'name', dir: 'asc' });
    // Names where known ('Admin zed' is the signed-in user's name), else the e-mail.
    expect(byName.data?.getAdmins.admins.map((x) => x.email)).toEqual(['zed@school.org', `c-${tag}@school.org`, `b-${tag}@school.org`, `d-${tag}@school.org`]);
    const search = await graphql<ListAnswer>(t.app, a.headers, LIST, { orgId: a.orgId, search: 'COOPER' });
    expect(search.data?.getAdmins.admins.map((x) => x.email)).toEqual([`c-${tag}@school.org`]);
    const desc = await graphql<ListAnswer>(t.app, a.headers, LIST, { orgId: a.orgId, dir: 'desc', page: 2, pageSize: 10 });
    expect(desc.data?.getAdmins).toMatchObject({ total: 4, admins: [] });
    const bad = await graphql(t.app, a.headers, LIST, { orgId: a.orgId, pageSize: 7 });
    expect(bad.errors?.[0]?.extensions?.statusCode).toBe(400);
  });

  it('refuses library managers (admins\' e-mails are for admins) and admins of other organisations', async () => {
    const a = await orgWithAdmin(t.app);
    const manager = await libraryManagerOf(t.app, a.orgId);
    expect((await graphql(t.app, manager, LIST, { orgId: a.orgId })).errors?.[0]?.extensions?.statusCode).toBe(403);
    const other = await orgWithAdmin(t.app);
    expect((await graphql(t.app, other.headers, LIST, { orgId: a.orgId })).errors?.[0]?.extensions?.statusCode).toBe(403);
  });
});
