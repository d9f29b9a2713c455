import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql, libraryManagerOf, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const REVOKE = 'mutation($orgId: ID!, $ids: [ID!]!) { revokeMembership(orgId: $orgId, memberIds: $ids) { memberIds } }';
const GRANT = 'mutation($orgId: ID!, $ids: [ID!]!) { grantMembership(orgId: $orgId, memberIds: $ids) { memberIds } }';
const DELETE = 'mutation($orgId: ID!, $ids: [ID!]!) { deleteMemberships(orgId: $orgId, memberIds: $ids) { memberIds } }';
const ROLE = 'mutation($orgId: ID!, $id: ID!, $role: Int!) { updateMembershipRole(orgId: $orgId, userId: $id, role: $role) { memberId role } }';
const ASSIGN = 'mutation($orgId: ID!, $lic: ID!, $ids: [ID!]!) { assignLicenses(orgId: $orgId, licenseId: $lic, memberIds: $ids) { assignedMemberIds allocated available } }';
const REMOVE_LICENSES = 'mutation($orgId: ID!, $ids: [ID!]!) { removeLicenses(orgId: $orgId, memberIds: $ids) { memberIds } }';
const RENAME = 'mutation($orgId: ID!, $name: String!) { renameOrganisation(orgId: $orgId, name: $name) { id name } }';

async function memberRow(id: string) {
  return t.app.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
}

describe('membership mutations', () => {
  it('revokeMembership moves a pending teacher to Inactive and frees the licence; grantMembership brings them back', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId });
    const pending = await buildTeacher(t.app.db, { organisationId: orgId, pending: true, role: -600, license_id: license.id });
    const revoked = await graphql(t.app, headers, REVOKE, { orgId, ids: [pending.id] });
    expect(revoked).toEqual({ data: { revokeMembership: { memberIds: [pending.id] } } });
    expect(await memberRow(pending.id)).toMatchObject({ license_id: null, revoked_at: expect.any(Date) });
    const granted = await graphql(t.app, headers, GRANT, { orgId, ids: [pending.id] });
    expect(granted.data).toEqual({ grantMembership: { memberIds: [pending.id] } });
    expect((await memberRow(pending.id))?.revoked_at).toBeNull();
  });

  it('refuses to remove a signed-up teacher unless the actor is provider staff', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const refused = await graphql(t.app, headers, REVOKE, { orgId, ids: [teacher.id] });
    expect(refused.errors?.[0]).toMatchObject({ message: 'Only pending teachers can be removed from this organisation', extensions: { statusCode: 403 } });
    const staff = await orgWithAdmin(t.app, {}, `ops-${Date.now()}@${t.env.PROVIDER_EMAIL_DOMAIN}`);
    await t.app.db.insertInto('admins').values({ organisation_id: orgId, email: staff.email, user_id: staff.userId }).execute();
    expect((await graphql(t.app, staff.headers, REVOKE, { orgId, ids: [teacher.id] })).data).toEqual({ revokeMembership: { memberIds: [teacher.id] } });
  });

  it('deleteMemberships deletes a pending membership', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const pending = await buildTeacher(t.app.db, { organisationId: orgId, pending: true, role: -600 });
    expect((await graphql(t.app, headers, DELETE, { orgId, ids: [pending.id] })).data).toEqual({ deleteMemberships: { memberIds: [pending.id] } });
    expect(await memberRow(pending.id)).toBeUndefined();
  });

  it('updateMembershipRole toggles library manager with orgLibraries and refuses other roles', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { org_libraries: true });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    expect((await graphql(t.app, headers, ROLE, { orgId, id: teacher.id, role: 400 })).data).toEqual({ updateMembershipRole: { memberId: teacher.id, role: 400 } });
    expect((await memberRow(teacher.id))?.role).toBe(400);
    expect((await graphql(t.app, headers, ROLE, { orgId, id: teacher.id, role: 600 })).data).toEqual({ updateMembershipRole: { memberId: teacher.id, role: 600 } });
    expect((await graphql(t.app, headers, ROLE, { orgId, id: teacher.id, role: -600 })).errors?.[0]?.extensions?.code).toBe('invalid_role');
    const audit = await t.app.db.selectFrom('audit_events').select('details').where('organisation_id', '=', orgId).where('action', '=', 'members.role').orderBy('id').execute();
    expect(audit.map((a) => a.details)).toEqual([{ from: 600, to: 400 }, { from: 400, to: 600 }]);
  });
});

describe('licence mutations', () => {
  it('assignLicenses applies the licence rule and removeLicenses frees the seats', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, quantity: 1, book_quota: 40 });
    const [a, b] = await Promise.all([1, 2].map(() => buildTeacher(t.app.db, { organisationId: orgId })));
    const over = await graphql(t.app, headers, ASSIGN, { orgId, lic: license.id, ids: [a!.id, b!.id] });
    expect(over.errors?.[0]?.message).toBe(
      'Not enough 40 book licenses available. You have 1 available, please purchase more licenses or select fewer teachers to assign.',
    );
    expect((await graphql(t.app, headers, ASSIGN, { orgId, lic: license.id, ids: [a!.id] })).data).toEqual({
      assignLicenses: { assignedMemberIds: [a!.id], allocated: 1, available: 0 },
    });
    expect((await graphql(t.app, headers, REMOVE_LICENSES, { orgId, ids: [a!.id] })).data).toEqual({ removeLicenses: { memberIds: [a!.id] } });
    expect((await memberRow(a!.id))?.license_id).toBeNull();
  });

  it('refuses licence removal in a domain organisation', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { is_domain: true });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    expect((await graphql(t.app, headers, REMOVE_LICENSES, { orgId, ids: [teacher.id] })).errors?.[0]?.extensions?.code).toBe('domain_organisation');
  });
});

describe('renameOrganisation', () => {
  it('trims and saves the name, refuses empty and over-long names', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    expect((await graphql(t.app, headers, RENAME, { orgId, name: '  Hill School  ' })).data).toEqual({ renameOrganisation: { id: orgId, name: 'Hill School' } });
    const empty = await graphql(t.app, headers, RENAME, { orgId, name: '   ' });
    expect(empty.errors?.[0]?.message).toBe('Organisation name cannot be empty');
    const long = await graphql(t.app, headers, RENAME, { orgId, name: 'x'.repeat(129) });
    expect(long.errors?.[0]?.extensions?.code).toBe('invalid_organisation_name');
    const row = await t.app.db.selectFrom('organisations').select('name').where('id', '=', orgId).executeTakeFirstOrThrow();
    expect(row.name).toBe('Hill School');
  });
});

describe('every mutation refuses other organisations and read-only library managers', () => {
  it('answers 403 for another organisation, 404 for its members through my organisation, and 403 to a library manager', async () => {
    const mine = await orgWithAdmin(t.app, { org_libraries: true });
    const theirs = await orgWithAdmin(t.app, { org_libraries: true });
    const license = await buildLicense(t.app.db, { organisationId: theirs.orgId });
    const teacher = await buildTeacher(t.app.db, { organisationId: theirs.orgId, pending: true, role: -600 });
    const manager = await libraryManagerOf(t.app, theirs.orgId);
    const calls: Array<[string, Record<string, unknown>]> = [
      [REVOKE, { ids: [teacher.id] }],
      [GRANT, { ids: [teacher.id] }],
      [DELETE, { ids: [teacher.id] }],
      [ROLE, { id: teacher.id, role: 400 }],
      [ASSIGN, { lic: license.id, ids: [teacher.id] }],
      [REMOVE_LICENSES, { ids: [teacher.id] }],
      [RENAME, { name: 'Taken over' }],
    ];
    for (const [query, vars] of calls) {
      const foreign = await graphql(t.app, mine.headers, query, { ...vars, orgId: theirs.orgId });
      expect(foreign.errors?.[0]?.extensions?.statusCode, query).toBe(403);
      const asManager = await graphql(t.app, manager, query, { ...vars, orgId: theirs.orgId });
      expect(asManager.errors?.[0]?.extensions?.statusCode, query).toBe(403);
      if (query !== RENAME) {
        const throughMine = await graphql(t.app, mine.headers, query, { ...vars, orgId: mine.orgId });
        expect(throughMine.errors?.[0]?.extensions?.statusCode, query).toBe(404);
      }
    }
    expect(await memberRow(teacher.id)).toMatchObject({ revoked_at: null, license_id: null, role: -600 });
    const org = await t.app.db.selectFrom('organisations').select('name').where('id', '=', theirs.orgId).executeTakeFirstOrThrow();
    expect(org.name).not.toBe('Taken over');
  });
});
