import { describe, expect, it } from 'vitest';
import SCIMMY from 'scimmy';
import { appForFile } from './file-app.js';
import { expectScimError, expectScimList, expectScimUser, scim, scimOrganisation } from './scim.helpers.js';

/**
 * The SCIM endpoint driven as the identity providers drive it, with the bodies they document: Microsoft Entra ID's
 * provisioning requests ("Tutorial: Develop and plan provisioning for a SCIM endpoint") and Okta's SCIM 2.0 test
 * plan ("Okta and SCIM Version 2.0"). Every answer is checked with SCIMMY's schemas.
 */
const t = appForFile({ PUBLIC_URL: 'https://quire.example-district.org' });

async function teacherRow(orgId: string, memberId: string) {
  return t.app.db.selectFrom('members').selectAll().where('organisation_id', '=', orgId).where('id', '=', memberId).executeTakeFirst();
}

describe('discovery', () => {
  it('describes exactly what is supported, as SCIM documents', async () => {
    const { token } = await scimOrganisation(t);
    const config = await scim(t, token, 'GET', '/ServiceProviderConfig');
    expect(config.statusCode).toBe(200);
    expect(config.headers['content-type']).toMatch(/^application\/scim\+json/);
    const body = config.json();
    expect(() => SCIMMY.Schemas.ServiceProviderConfig.definition.coerce(body, 'out')).not.toThrow();
    expect(body).toMatchObject({ patch: { supported: true }, bulk: { supported: false }, filter: { supported: true, maxResults: 200 }, etag: { supported: false } });
    expect(body.authenticationSchemes[0].type).toBe('oauthbearertoken');

    const types = expectScimList(await scim(t, token, 'GET', '/ResourceTypes'), SCIMMY.Schemas.ResourceType.definition);
    expect(types.Resources.map((r) => r.id)).toEqual(['User', 'Group']);
    const schemas = (await scim(t, token, 'GET', '/Schemas')).json();
    expect(schemas.Resources.map((s: { id: string }) => s.id)).toEqual([SCIMMY.Schemas.User.id, SCIMMY.Schemas.EnterpriseUser.id, SCIMMY.Schemas.Group.id]);
  });
});

describe('Microsoft Entra ID provisioning sequence', () => {
  it('creates, finds by filter, patches attributes, deactivates and deletes a teacher', async () => {
    const { org, token, tokenId } = await scimOrganisation(t);
    // Get user by query with zero results: how Entra ID decides to create.
    const none = expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@testuser.com"')}`));
    expect(none).toMatchObject({ totalResults: 0, Resources: [] });

    // Create User (Entra ID's request).
    const create = await scim(t, token, 'POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@testuser.com',
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    const user = expectScimUser(create, 201);
    expect(create.headers.location).toBe((user.meta as { location: string }).location);
    expect(create.headers.location).toBe(`https://quire.example-district.org/scim/v2/Users/${user.id}`);
    expect(user).toMatchObject({ userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@testuser.com', externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', active: true });
    // A pending teacher of the organisation, as an import makes one.
    expect(await teacherRow(org.id, user.id)).toMatchObject({ email: 'test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com', display_name: 'givenName familyName', pending: true, revoked_at: null });

    // Get user by query.
    const found = expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@testuser.com"')}`));
    expect(found).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(found.Resources[0]?.id).toBe(user.id);
    // By the work address, and by externalId and userName together.
    expect(expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com"')}`)).totalResults).toBe(1);
    expect(expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef" and userName eq "test_user_ab6490ee-1e48-479e-a20b-2d77186b5dd1@TESTUSER.com"')}`)).totalResults).toBe(1);

    // Update User [Multi-valued properties].
    const multi = expectScimUser(await scim(t, token, 'PATCH', `/Users/${user.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    }));
    expect(multi.emails).toEqual([{ value: 'updatedemail@microsoft.com', type: 'work', primary: true }]);
    expect(multi.name).toMatchObject({ familyName: 'updatedFamilyName', givenName: 'givenName' });

    // Update User [Single-valued properties].
    const single = expectScimUser(await scim(t, token, 'PATCH', `/Users/${user.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' }],
    }));
    expect(single.userName).toBe('5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com');

    // Entra ID's other forms: no path with a value object, dotted and URN-qualified keys, the enterprise extension.
    const noPath = expectScimUser(await scim(t, token, 'PATCH', `/Users/${user.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Add', value: { displayName: 'Dana Updated', 'name.givenName': 'Dana', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'Science' } },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber', value: '100009' },
        { op: 'Add', path: 'title', value: 'Teacher' },
      ],
    }));
    expect(noPath).toMatchObject({ displayName: 'Dana Updated', name: { givenName: 'Dana' }, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Science', employeeNumber: '100009' } });
    expect((await teacherRow(org.id, user.id))?.display_name).toBe('Dana Updated');

    // Disable User, with active as the string Entra ID sends when its flag is off: the teacher goes to Inactive.
    const disabled = expectScimUser(await scim(t, token, 'PATCH', `/Users/${user.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    }));
    expect(disabled.active).toBe(false);
    expect((await teacherRow(org.id, user.id))?.revoked_at).not.toBeNull();
    // "Response from a GET and filter request on a disabled User should have attribute active".
    const listed = expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com"')}`));
    expect(listed.Resources[0]?.active).toBe(false);

    // Delete User: 204, then 404; the teacher stays under Inactive with their books.
    const deleted = await scim(t, token, 'DELETE', `/Users/${user.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expectScimError(await scim(t, token, 'GET', `/Users/${user.id}`), 404);
    expect((await teacherRow(org.id, user.id))?.revoked_at).not.toBeNull();
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'actor_kind', 'actor_user_id', 'actor_name']).where('organisation_id', '=', org.id).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['scim.token.generated', 'scim.user.created', 'scim.user.updated', 'scim.user.updated', 'scim.user.updated', 'scim.user.deactivated', 'scim.user.deleted']);
    // The identity provider is the actor of its changes, by the token it called with (the admin generated the token).
    expect(audit[0]!.actor_kind).toBe('user');
    for (const entry of audit.slice(1)) expect(entry).toMatchObject({ actor_kind: 'identity_provider', actor_user_id: tokenId, actor_name: 'Identity provider (SCIM)' });
  });
});

describe('Okta SCIM 2.0 test plan', () => {
  const oktaUser = (userName: string, givenName: string) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    name: { givenName, familyName: 'User' },
    emails: [{ primary: true, value: userName, type: 'work' }],
    displayName: `${givenName} User`,
    locale: 'en-US',
    externalId: '00ujl29u0le5T6Aj10h7',
    groups: [],
    password: '1mz050nq',
    active: true,
  });

  it('creates, gets, lists with filter and paging, updates, deactivates and reactivates', async () => {
    const { org, token } = await scimOrganisation(t);
    // Okta first looks the user up, and expects a random id to be 404.
    expect(expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('userName eq "test.user@okta.local"')}&startIndex=1&count=100`)).totalResults).toBe(0);
    expectScimError(await scim(t, token, 'GET', '/Users/010101010101010101'), 404);

    const created = expectScimUser(await scim(t, token, 'POST', '/Users', oktaUser('test.user@okta.local', 'Test')), 201);
    expect(created).toMatchObject({ userName: 'test.user@okta.local', displayName: 'Test User', active: true });
    expect(created).not.toHaveProperty('password');
    // Creating the same user again is a uniqueness conflict.
    expectScimError(await scim(t, token, 'POST', '/Users', oktaUser('test.user@okta.local', 'Test')), 409, 'uniqueness');

    expect(expectScimUser(await scim(t, token, 'GET', `/Users/${created.id}`)).userName).toBe('test.user@okta.local');

    // Paging: three more users, read two at a time.
    for (const n of [1, 2, 3]) expectScimUser(await scim(t, token, 'POST', '/Users', { ...oktaUser(`paged.${n}@okta.local`, `Paged${n}`), externalId: `ext-${n}` }), 201);
    const first = expectScimList(await scim(t, token, 'GET', '/Users?startIndex=1&count=2'));
    expect(first).toMatchObject({ totalResults: 4, startIndex: 1, itemsPerPage: 2 });
    const second = expectScimList(await scim(t, token, 'GET', '/Users?startIndex=3&count=2'));
    expect(second).toMatchObject({ totalResults: 4, startIndex: 3, itemsPerPage: 2 });
    expect(new Set([...first.Resources, ...second.Resources].map((r) => r.id)).size).toBe(4);
    expect(expectScimList(await scim(t, token, 'GET', '/Users?startIndex=5&count=2')).itemsPerPage).toBe(0);

    // Update (PUT) as Okta sends it.
    const updated = expectScimUser(await scim(t, token, 'PUT', `/Users/${created.id}`, { ...oktaUser('test.user@okta.local', 'Another'), id: created.id }));
    expect(updated).toMatchObject({ displayName: 'Another User', name: { givenName: 'Another', familyName: 'User' } });

    // Deactivate and reactivate, Okta's PATCH without a path.
    const deactivate = (active: boolean) => scim(t, token, 'PATCH', `/Users/${created.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active } }],
    });
    expect(expectScimUser(await deactivate(false)).active).toBe(false);
    expect((await teacherRow(org.id, created.id))?.revoked_at).not.toBeNull();
    expect(expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent('active eq false')}`)).totalResults).toBe(1);
    expect(expectScimUser(await deactivate(true)).active).toBe(true);
    expect((await teacherRow(org.id, created.id))?.revoked_at).toBeNull();
  });
});
