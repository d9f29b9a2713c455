import { describe, expect, it } from 'vitest';
import SCIMMY from 'scimmy';
import { signUpPendingMembers } from '../src/modules/members/member-sign-up.service.js';
import { signIn } from './auth.js';
import { buildTeacher } from './factories.js';
import { appForFile, uniqueEmail } from './file-app.js';
import { expectScimError, expectScimGroup, expectScimList, expectScimUser, scim, scimOrganisation } from './scim.helpers.js';
import { orgPath } from './teachers.helpers.js';

/**
 * SCIM Groups as Microsoft Entra ID ("Tutorial: Develop and plan provisioning for a SCIM endpoint", Group operations)
 * and Okta ("Okta and SCIM Version 2.0", Groups) send them, every answer checked with SCIMMY's Group schema; and the
 * admins group, whose active members are the organisation's admins, and the library managers group, whose active
 * members are its library managers (a pending one from the moment they sign up).
 */
const t = appForFile({ PUBLIC_URL: 'https://quire.example-district.org', PRODUCT_NAME: 'Quire' });
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

async function provision(token: string, email = uniqueEmail('scim-staff')) {
  return expectScimUser(await scim(t, token, 'POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: email, emails: [{ type: 'work', value: email, primary: true }], active: true,
  }), 201);
}

async function admins(orgId: string): Promise<string[]> {
  const rows = await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', orgId).orderBy('email').execute();
  return rows.map((r) => r.email);
}

async function memberCount(orgId: string): Promise<number> {
  const row = await t.app.db.selectFrom('scim_group_members').select((eb) => eb.fn.countAll<string>().as('n')).where('organisation_id', '=', orgId).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('Microsoft Entra ID group sequence', () => {
  it('creates a group, finds it by displayName, renames it, adds and removes members, and deletes it', async () => {
    const { org, token } = await scimOrganisation(t);
    const [ada, ben] = [await provision(token), await provision(token)];

    // Create Group (Entra ID's request, with its own extension schema URN and a meta it sends).
    const created = await scim(t, token, 'POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group', 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'displayName',
      meta: { resourceType: 'Group' },
    });
    const group = expectScimGroup(created, 201);
    expect(created.headers.location).toBe(`https://quire.example-district.org/scim/v2/Groups/${group.id}`);
    expect(group).toMatchObject({ displayName: 'displayName', externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', members: [] });

    // Get Group, and by displayName, without members.
    expect(expectScimGroup(await scim(t, token, 'GET', `/Groups/${group.id}?excludedAttributes=members`)).members).toBeUndefined();
    const byName = expectScimList(await scim(t, token, 'GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "DISPLAYNAME"')}`), SCIMMY.Schemas.Group.definition);
    expect(byName).toMatchObject({ totalResults: 1, itemsPerPage: 1 });
    expect(byName.Resources[0]).toMatchObject({ id: group.id });
    expect(byName.Resources[0]?.members).toBeUndefined();

    // Update Group [Non-member attributes].
    const renamed = expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }],
    }));
    expect(renamed.displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');

    // Update Group [Add Members], Entra ID's form with "$ref": null.
    const added = expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: ada.id }, { $ref: null, value: ben.id }] }],
    }));
    expect(added.members?.map((m) => m.value).sort()).toEqual([ada.id, ben.id].sort());
    expect(added.members?.find((m) => m.value === ada.id)?.display).toBe(ada.userName);
    // Which groups a user is in.
    expect(expectScimList(await scim(t, token, 'GET', `/Groups?filter=${encodeURIComponent(`members[value eq "${ada.id}"]`)}`), SCIMMY.Schemas.Group.definition).totalResults).toBe(1);

    // Update Group [Remove Members], Entra ID's form: path members with the ones to remove.
    const removed = expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: ada.id }] }],
    }));
    expect(removed.members?.map((m) => m.value)).toEqual([ben.id]);

    // Delete Group: 204, then 404; its members stay teachers.
    const deleted = await scim(t, token, 'DELETE', `/Groups/${group.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectScimError(await scim(t, token, 'GET', `/Groups/${group.id}`), 404);
    expectScimUser(await scim(t, token, 'GET', `/Users/${ben.id}`));
    expect(await memberCount(org.id)).toBe(0);
    const audit = await t.app.db.selectFrom('audit_events').select('action').where('organisation_id', '=', org.id).where('action', 'like', 'scim.group.%').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['scim.group.created', 'scim.group.updated', 'scim.group.updated', 'scim.group.updated', 'scim.group.deleted']);
  });
});

describe('Okta group sequence', () => {
  it('creates, lists with paging, renames without a path, adds, removes by filter, replaces and deletes', async () => {
    const { token } = await scimOrganisation(t);
    const [ada, ben] = [await provision(token), await provision(token)];
    const group = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Test SCIMv2', members: [] }), 201);
    // A second group of the same name, in any case: 409 uniqueness.
    expectScimError(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'test scimv2', members: [] }), 409, 'uniqueness');

    const page = expectScimList(await scim(t, token, 'GET', '/Groups?startIndex=1&count=100'), SCIMMY.Schemas.Group.definition);
    expect(page).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expectScimError(await scim(t, token, 'GET', `/Groups/${crypto.randomUUID()}`), 404);

    // Okta renames with a replace without a path, repeating the group's id.
    const renamed = expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'replace', value: { id: group.id, displayName: 'Test SCIMv2 (renamed)' } }],
    }));
    expect(renamed.displayName).toBe('Test SCIMv2 (renamed)');
    expectScimError(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: 'another-id' } }] }), 400, 'mutability');

    const withAda = expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: ada.id, display: ada.userName }, { value: ben.id, display: ben.userName }] }],
    }));
    expect(withAda.members).toHaveLength(2);
    const withoutAda = expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${ada.id}"]` }],
    }));
    expect(withoutAda.members?.map((m) => m.value)).toEqual([ben.id]);

    const replaced = expectScimGroup(await scim(t, token, 'PUT', `/Groups/${group.id}`, {
      schemas: [GROUP], id: group.id, displayName: 'Test SCIMv2', members: [{ value: ada.id, display: ada.userName }],
    }));
    expect(replaced).toMatchObject({ displayName: 'Test SCIMv2', members: [{ value: ada.id, display: ada.userName, type: 'User' }] });
    expect((await scim(t, token, 'DELETE', `/Groups/${group.id}`)).statusCode).toBe(204);
  });

  it('refuses bad groups with SCIM errors and changes nothing', async () => {
    const { org, token } = await scimOrganisation(t);
    const other = await scimOrganisation(t);
    const outsider = await provision(other.token);
    const ada = await provision(token);
    const group = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Science' }), 201);
    // Another organisation's user, an unknown id, a nested group, an unknown attribute, a bad path, a bad filter.
    expectScimError(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: ada.id }, { value: outsider.id }] }] }), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Art', members: [{ value: 'nobody' }] }), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: group.id, type: 'Group' }] }] }), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Art', owner: 'x' }), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP] }), 400, 'invalidValue');
    expectScimError(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'displayName' }] }), 400, 'mutability');
    expectScimError(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'owner', value: 'x' }] }), 400, 'invalidPath');
    expectScimError(await scim(t, token, 'GET', `/Groups?filter=${encodeURIComponent('displayName co "Sci"')}`), 400, 'invalidFilter');
    expectScimError(await scim(t, token, 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "x" or 1 eq 1')}`), 400, 'invalidFilter');
    // The other organisation's token sees nothing of this one's groups.
    expectScimError(await scim(t, other.token, 'GET', `/Groups/${group.id}`), 404);
    expectScimError(await scim(t, other.token, 'DELETE', `/Groups/${group.id}`), 404);
    expect(expectScimList(await scim(t, other.token, 'GET', '/Groups'), SCIMMY.Schemas.Group.definition).totalResults).toBe(0);
    expect(await memberCount(org.id)).toBe(0);
    expect(expectScimGroup(await scim(t, token, 'GET', `/Groups/${group.id}`))).toMatchObject({ displayName: 'Science', members: [] });
  });
});

describe('the admins group', () => {
  it('makes its active members admins through the admins module, and takes back only what it gave', async () => {
    const { org, token } = await scimOrganisation(t);
    const [before] = await admins(org.id);
    const [ada, ben] = [await provision(token), await provision(token)];
    const adaEmail = (ada.emails as Array<{ value: string }>)[0]?.value ?? '';
    const benEmail = (ben.emails as Array<{ value: string }>)[0]?.value ?? '';
    const staff = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Staff', members: [{ value: ada.id }] }), 201);
    expect(await admins(org.id)).toEqual([before]);

    // The group named "{product} Admins" (without case): its members become admins, recorded with the identity provider as actor.
    const group = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'quire admins', members: [{ value: ada.id }] }), 201);
    expect(await admins(org.id)).toEqual([adaEmail, before].sort());
    const grant = await t.app.db.selectFrom('audit_events').select(['actor_email', 'actor_kind', 'details', 'target_ids']).where('organisation_id', '=', org.id).where('action', '=', 'admins.import').executeTakeFirstOrThrow();
    expect(grant).toMatchObject({ actor_email: null, actor_kind: 'identity_provider', target_ids: [adaEmail], details: { via: 'scim', group: 'Quire Admins' } });

    // Deactivated: no longer an admin; reactivated while still in the group: one again.
    await scim(t, token, 'PATCH', `/Users/${ada.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(await admins(org.id)).toEqual([before]);
    await scim(t, token, 'PATCH', `/Users/${ada.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] });
    expect(await admins(org.id)).toEqual([adaEmail, before].sort());

    // A new address moves the admin with it.
    const moved = uniqueEmail('scim-moved');
    await scim(t, token, 'PATCH', `/Users/${ada.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'emails[type eq "work"].value', value: moved }] });
    expect(await admins(org.id)).toEqual([moved, before].sort());

    // The admin who was one before SCIM joins and leaves the group: still an admin.
    const existing = await provision(token, before);
    await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: existing.id }, { value: ben.id }] }] });
    expect(await admins(org.id)).toEqual([benEmail, moved, before].sort());
    await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${existing.id}"]` }] });
    expect(await admins(org.id)).toEqual([benEmail, moved, before].sort());

    // Leaving the group, being deleted, or the group losing its name: admins no more.
    await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ value: ben.id }] }] });
    expect(await admins(org.id)).toEqual([moved, before].sort());
    await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: ben.id }] }] });
    expect((await scim(t, token, 'DELETE', `/Users/${ben.id}`)).statusCode).toBe(204);
    expect(await admins(org.id)).toEqual([moved, before].sort());
    await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'displayName', value: 'Former admins' }] });
    expect(await admins(org.id)).toEqual([before]);
    // Renamed back, then deleted.
    await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'displayName', value: 'Quire Admins' }] });
    expect(await admins(org.id)).toEqual([moved, before].sort());
    expect((await scim(t, token, 'DELETE', `/Groups/${group.id}`)).statusCode).toBe(204);
    expect(await admins(org.id)).toEqual([before]);
    expect((await scim(t, token, 'DELETE', `/Groups/${staff.id}`)).statusCode).toBe(204);
  });

  it('keeps the admins rules: a provider-staff address is refused and the last admin is kept, each changing nothing', async () => {
    const { org, token } = await scimOrganisation(t);
    const [before] = await admins(org.id);
    const staffer = await provision(token, `someone-${Math.random().toString(36).slice(2, 8)}@quire.app`);
    const group = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Quire Admins' }), 201);
    expectScimError(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: staffer.id }] }] }), 400, 'invalidValue');
    expect(await memberCount(org.id)).toBe(0);
    expect(await admins(org.id)).toEqual([before]);

    // The organisation's own admin removed on the Admin screen, leaving only the one the group made: the group cannot
    // take that one away (409, nothing changed).
    const ada = await provision(token);
    const adaEmail = (ada.emails as Array<{ value: string }>)[0]?.value ?? '';
    await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: ada.id }] }] });
    await t.app.db.deleteFrom('admins').where('organisation_id', '=', org.id).where('email', '=', before ?? '').execute();
    expect(await admins(org.id)).toEqual([adaEmail]);
    expectScimError(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'members' }] }), 409);
    expect(await admins(org.id)).toEqual([adaEmail]);
    expect(await memberCount(org.id)).toBe(1);
  });
});

describe('the library managers group', () => {
  const emailOf = (user: Record<string, unknown>) => (user.emails as Array<{ value: string }>)[0]?.value ?? '';

  async function roles(orgId: string, ...users: Array<{ id: string }>): Promise<Array<{ role: number; pending: boolean }>> {
    const rows = await t.app.db.selectFrom('members').select(['id', 'role', 'pending']).where('organisation_id', '=', orgId).where('id', 'in', users.map((u) => u.id)).execute();
    return users.map((u) => {
      const row = rows.find((r) => r.id === u.id)!;
      return { role: row.role, pending: row.pending };
    });
  }

  /** The person signs up with a verified account of the address, as the identity module reports it. */
  async function signUp(email: string) {
    const { userId, headers } = await signIn(t.app, { email });
    await signUpPendingMembers(t.app.db, { id: userId, email, name: 'Signed Up', emailVerified: true });
    return headers;
  }

  const teachersPage = (orgId: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `${orgPath(orgId)}/members/teachers`, headers });

  it('makes its signed-up members library managers at once and its pending ones when they sign up, listing both, and takes back only what it gave', async () => {
    const { org, token, admin } = await scimOrganisation(t);
    await t.app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', org.id).execute();
    // The Provisioning screen names both groups.
    const setup = await t.app.inject({ method: 'GET', url: `/api/organisations/${org.id}/scim/tokens`, headers: admin });
    expect(setup.json<{ groups: unknown }>().groups).toEqual({ admins: 'Quire Admins', libraryManagers: 'Quire Library Managers' });
    const [ada, ben] = [await provision(token), await provision(token)];
    const benHeaders = await signUp(emailOf(ben));
    expect(await roles(org.id, ada, ben)).toEqual([{ role: -600, pending: true }, { role: 600, pending: false }]);
    expect((await teachersPage(org.id, benHeaders)).statusCode).toBe(403);

    // Okta creates the group empty; Entra ID adds the members ("$ref": null), its exact PATCH.
    const group = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Quire Library Managers', members: [] }), 201);
    const added = expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: ada.id }, { $ref: null, value: ben.id }] }],
    }));
    expect(added.members?.map((m) => m.value).sort()).toEqual([ada.id, ben.id].sort());

    // Ben, signed up, is a library manager now; Ada, pending, stays pending, and the group still lists her.
    expect(await roles(org.id, ada, ben)).toEqual([{ role: -600, pending: true }, { role: 400, pending: false }]);
    expect((await teachersPage(org.id, benHeaders)).statusCode).toBe(200);
    expect(expectScimGroup(await scim(t, token, 'GET', `/Groups/${group.id}`)).members?.map((m) => m.value).sort()).toEqual([ada.id, ben.id].sort());
    const recorded = await t.app.db.selectFrom('audit_events').select(['actor_email', 'actor_kind', 'details', 'target_ids', 'new_value'])
      .where('organisation_id', '=', org.id).where('action', '=', 'members.role').orderBy('id').execute();
    expect(recorded).toHaveLength(2);
    for (const entry of recorded) expect(entry).toMatchObject({ actor_email: null, actor_kind: 'identity_provider', details: { via: 'scim', group: 'Quire Library Managers', to: 400 }, new_value: { role: 'Library Manager' } });
    expect(recorded.find((e) => e.target_ids[0] === ada.id)?.details).toMatchObject({ pending: true });
    expect(recorded.find((e) => e.target_ids[0] === ben.id)?.details).not.toHaveProperty('pending');

    // Ada signs up: a library manager from her first sign-in.
    const adaHeaders = await signUp(emailOf(ada));
    expect(await roles(org.id, ada)).toEqual([{ role: 400, pending: false }]);
    expect((await teachersPage(org.id, adaHeaders)).statusCode).toBe(200);

    // Okta removes Ben by filter: a teacher again, recorded.
    expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${ben.id}"]` }] }));
    expect(await roles(org.id, ben)).toEqual([{ role: 600, pending: false }]);
    expect((await teachersPage(org.id, benHeaders)).statusCode).toBe(403);

    // Deactivated: no longer one; reactivated while still in the group: one again. Deleted: not one.
    await scim(t, token, 'PATCH', `/Users/${ada.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(await roles(org.id, ada)).toEqual([{ role: 600, pending: false }]);
    await scim(t, token, 'PATCH', `/Users/${ada.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] });
    expect(await roles(org.id, ada)).toEqual([{ role: 400, pending: false }]);
    expect((await scim(t, token, 'DELETE', `/Users/${ada.id}`)).statusCode).toBe(204);
    expect(await roles(org.id, ada)).toEqual([{ role: 600, pending: false }]);
    const actions = await t.app.db.selectFrom('audit_events').select('new_value').where('organisation_id', '=', org.id).where('action', '=', 'members.role').orderBy('id').execute();
    expect(actions.map((a) => (a.new_value as { role: string }).role)).toEqual(['Library Manager', 'Library Manager', 'Teacher', 'Teacher', 'Library Manager', 'Teacher']);
  });

  it("gives the role while the organisation's libraries are off, and access only once they are on", async () => {
    const { org, token } = await scimOrganisation(t);
    const fay = await provision(token);
    const fayHeaders = await signUp(emailOf(fay));
    expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Quire Library Managers', members: [{ value: fay.id }] }), 201);
    expect(await roles(org.id, fay)).toEqual([{ role: 400, pending: false }]);
    expect((await teachersPage(org.id, fayHeaders)).statusCode).toBe(403);
    await t.app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', org.id).execute();
    expect((await teachersPage(org.id, fayHeaders)).statusCode).toBe(200);
  });

  it('forgets a pending member it no longer lists before they sign up, keeps a library manager made on the Teachers screen, and follows a rename', async () => {
    const { org, token } = await scimOrganisation(t);
    await t.app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', org.id).execute();
    const dan = await provision(token);
    const existing = await buildTeacher(t.app.db, { organisationId: org.id, email: uniqueEmail('scim-manager'), role: 400 });
    const eve = await provision(token, existing.email);
    const group = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: [GROUP], displayName: 'Year 7 team', members: [{ value: dan.id }, { value: eve.id }] }), 201);
    expect(await roles(org.id, dan, eve)).toEqual([{ role: -600, pending: true }, { role: 400, pending: false }]);

    // Renamed to the library managers group (Entra ID's Replace of displayName), without case.
    expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'displayName', value: 'QUIRE library managers' }] }));
    // Removed before signing up (Entra ID's Remove), Dan signs up a teacher; Eve leaves and keeps the role she had before.
    expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: dan.id }, { $ref: null, value: eve.id }] }],
    }));
    await signUp(emailOf(dan));
    expect(await roles(org.id, dan, eve)).toEqual([{ role: 600, pending: false }, { role: 400, pending: false }]);
    const recorded = await t.app.db.selectFrom('audit_events').select(['target_ids', 'details']).where('organisation_id', '=', org.id).where('action', '=', 'members.role').orderBy('id').execute();
    expect(recorded.map((e) => [e.target_ids[0], (e.details as { to: number; pending?: boolean }).to, (e.details as { pending?: boolean }).pending])).toEqual([[dan.id, 400, true], [dan.id, 600, true]]);

    // Added again and the group renamed away: Dan, signed up now, is a library manager and then not.
    expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: dan.id }] }] }));
    expect(await roles(org.id, dan)).toEqual([{ role: 400, pending: false }]);
    expectScimGroup(await scim(t, token, 'PATCH', `/Groups/${group.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: group.id, displayName: 'Year 7 team' } }] }));
    expect(await roles(org.id, dan)).toEqual([{ role: 600, pending: false }]);
  });
});
