import { describe, expect, it } from 'vitest';
import SCIMMY from 'scimmy';
import { appForFile, uniqueEmail } from './file-app.js';
import { expectScimError, expectScimGroup, expectScimList, expectScimUser, scim, scimOrganisation } from './scim.helpers.js';

/**
 * attributes and excludedAttributes (RFC 7644 §3.4.2.5, §3.9) on Users and Groups, and discovery by id
 * (/Schemas/{urn}, /ResourceTypes/{name}, §4). SCIMMY (a SCIM library the server does not use) computes the expected
 * answer from the full resource where its reading agrees with the RFC: it keeps an extension whole when only core
 * attributes are named and drops `schemas` (RFC 7643 §3 requires it), so those two are compared apart.
 */
const t = appForFile({ PUBLIC_URL: 'https://quire.example-district.org', PRODUCT_NAME: 'Quire' });
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

async function provisioned() {
  const { token } = await scimOrganisation(t);
  const email = uniqueEmail('scim-attr');
  const user = expectScimUser(await scim(t, token, 'POST', '/Users', {
    schemas: [USER, ENTERPRISE], userName: email, externalId: 'sis-4711', name: { givenName: 'Ada', familyName: 'Lovelace' }, displayName: 'Ada Lovelace',
    emails: [{ type: 'work', value: email, primary: true }], active: true, [ENTERPRISE]: { employeeNumber: '4711', department: 'Mathematics' },
  }), 201);
  return { token, user, email };
}

/** SCIMMY's reading of the query applied to the full resource. */
function scimmyExpects(full: Record<string, unknown>, query: { attributes?: string; excludedAttributes?: string }) {
  const filter = new SCIMMY.Types.Resource(undefined, query).attributes;
  return SCIMMY.Schemas.User.definition.coerce(full, 'out', undefined, filter) as Record<string, unknown>;
}

const withoutKeys = (value: Record<string, unknown>, ...keys: string[]) => Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)));

describe('attributes and excludedAttributes on Users', () => {
  it('answers only the attributes asked for, with id and schemas always, as SCIMMY reads the query', async () => {
    const { token, user } = await provisioned();
    for (const attributes of ['userName', 'name.givenName,emails.value', 'USERNAME,Active']) {
      const answer = (await scim(t, token, 'GET', `/Users/${user.id}?attributes=${encodeURIComponent(attributes)}`)).json();
      expect(answer.schemas, attributes).toEqual([USER]);
      expect(withoutKeys(answer, 'schemas'), attributes).toEqual(withoutKeys(scimmyExpects(user, { attributes }), ENTERPRISE));
    }
    const one = (await scim(t, token, 'GET', `/Users/${user.id}?attributes=userName`)).json();
    expect(one).toEqual({ schemas: [USER], id: user.id, userName: user.userName });
  });

  it('leaves out what excludedAttributes names, sub-attributes and an extension attribute included, as SCIMMY does', async () => {
    const { token, user } = await provisioned();
    for (const excludedAttributes of ['emails', 'name.familyName,meta', `emails,${ENTERPRISE}:department`, 'id,userName']) {
      const response = await scim(t, token, 'GET', `/Users/${user.id}?excludedAttributes=${encodeURIComponent(excludedAttributes)}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json(), excludedAttributes).toEqual(scimmyExpects(user, { excludedAttributes }));
    }
    // id is returned always, even when excluded.
    expect((await scim(t, token, 'GET', `/Users/${user.id}?excludedAttributes=id`)).json().id).toBe(user.id);
  });

  it('takes URN-qualified names: a core attribute by its schema, the whole extension by its URN', async () => {
    const { token, user } = await provisioned();
    expect((await scim(t, token, 'GET', `/Users/${user.id}?attributes=${encodeURIComponent(`${USER}:userName`)}`)).json())
      .toEqual({ schemas: [USER], id: user.id, userName: user.userName });
    expect((await scim(t, token, 'GET', `/Users/${user.id}?attributes=${encodeURIComponent(ENTERPRISE)}`)).json())
      .toEqual({ schemas: [USER, ENTERPRISE], id: user.id, [ENTERPRISE]: { employeeNumber: '4711', department: 'Mathematics' } });
    expect((await scim(t, token, 'GET', `/Users/${user.id}?excludedAttributes=${encodeURIComponent(ENTERPRISE)}`)).json().schemas).toEqual([USER]);
  });

  it('applies to every resource of a list, and a name the resource does not have selects nothing', async () => {
    const { token, email } = await provisioned();
    const list = expectScimList(await scim(t, token, 'GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&attributes=userName,noSuchAttribute`));
    expect(list.totalResults).toBe(1);
    expect(Object.keys(list.Resources[0]!).sort()).toEqual(['id', 'schemas', 'userName']);
    const tooMany = Array.from({ length: 51 }, (_, i) => `a${i}`).join(',');
    expectScimError(await scim(t, token, 'GET', `/Users?attributes=${tooMany}`), 400, 'invalidValue');
  });
});

describe('attributes on Groups', () => {
  it('answers a group without its members unless they are asked for', async () => {
    const { token, user } = await provisioned();
    const group = expectScimGroup(await scim(t, token, 'POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Year 7', members: [{ value: user.id }] }), 201);
    expect((await scim(t, token, 'GET', `/Groups/${group.id}?attributes=displayName`)).json())
      .toEqual({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], id: group.id, displayName: 'Year 7' });
    expect((await scim(t, token, 'GET', `/Groups/${group.id}?attributes=members.value`)).json().members).toEqual([{ value: user.id }]);
    const list = (await scim(t, token, 'GET', '/Groups?excludedAttributes=members,meta')).json();
    expect(list.Resources[0]).toEqual({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], id: group.id, displayName: 'Year 7' });
  });
});

describe('discovery by id', () => {
  it('answers one schema by its URN and one resource type by its name, and a SCIM 404 for another', async () => {
    const { token } = await scimOrganisation(t);
    const schema = (await scim(t, token, 'GET', `/Schemas/${USER}`)).json();
    expect(schema).toMatchObject({ id: USER, name: 'User', meta: { resourceType: 'Schema', location: `https://quire.example-district.org/scim/v2/Schemas/${USER}` } });
    expect(() => new SCIMMY.Types.SchemaDefinition(schema.name, schema.id, schema.description, [])).not.toThrow();
    const all = (await scim(t, token, 'GET', '/Schemas')).json();
    expect(all.Resources.find((s: { id: string }) => s.id === USER)).toEqual(schema);
    expect((await scim(t, token, 'GET', `/Schemas/${ENTERPRISE}`)).json().id).toBe(ENTERPRISE);
    expect((await scim(t, token, 'GET', '/ResourceTypes/Group')).json()).toMatchObject({ id: 'Group', endpoint: '/Groups', schema: 'urn:ietf:params:scim:schemas:core:2.0:Group' });
    expectScimError(await scim(t, token, 'GET', '/ResourceTypes/Printer'), 404);
    expectScimError(await scim(t, token, 'GET', '/Schemas/urn:example:nothing'), 404);
  });
});
