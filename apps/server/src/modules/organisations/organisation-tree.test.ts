import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../../test/factories.js';
import { graphql, orgPath } from '../../../test/teachers.helpers.js';
import { errorCatalogue } from '@quire/core';

// Districts over schools (docs/districts.md): an admin of a district is an admin of every school under it, a school's
// admin sees that school only, and only provider staff move a school between districts.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@district.example.org`;
const MOVE = 'mutation m($orgId: ID!, $parentId: ID) { moveOrganisation(orgId: $orgId, parentId: $parentId) { id name parentId } }';
const PICKER = '{ getOrganisations { id name parentId } }';

async function adminOf(orgId: string): Promise<SignedInHeaders> {
  const email = unique('admin');
  await buildAdmin(t.app.db, { organisationId: orgId, email });
  return (await signIn(t.app, { email })).headers;
}

async function district() {
  const root = await buildOrganisation(t.app.db, { name: `District ${Math.random().toString(36).slice(2, 6)}` });
  const north = await buildOrganisation(t.app.db, { name: 'North School', parent_id: root.id, org_libraries: true });
  const south = await buildOrganisation(t.app.db, { name: 'South School', parent_id: root.id });
  const alone = await buildOrganisation(t.app.db, { name: 'Standalone School' });
  for (const school of [north, south, alone]) await buildTeacher(t.app.db, { organisationId: school.id, email: unique('teacher') });
  return { root, north, south, alone };
}

const teachersOf = (orgId: string, headers: SignedInHeaders) => t.app.inject({ method: 'GET', url: `${orgPath(orgId)}/members/teachers`, headers });

describe('access follows the tree', () => {
  it('gives a district admin every school under the district, and nothing else', async () => {
    const { root, north, south, alone } = await district();
    const headers = await adminOf(root.id);
    for (const orgId of [root.id, north.id, south.id]) expect((await teachersOf(orgId, headers)).statusCode, orgId).toBe(200);
    expect((await teachersOf(alone.id, headers)).statusCode).toBe(403);
    // A change in a school is an admin's change too.
    const renamed = await graphql(t.app, headers, 'mutation r($orgId: ID!) { renameOrganisation(orgId: $orgId, name: "North Academy") { name } }', { orgId: north.id });
    expect(renamed.data).toEqual({ renameOrganisation: { name: 'North Academy' } });

    const picker = await graphql<{ getOrganisations: Array<{ id: string; parentId: string | null }> }>(t.app, headers, PICKER);
    expect(picker.data?.getOrganisations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: root.id, parentId: null }),
        expect.objectContaining({ id: north.id, parentId: root.id }),
        expect.objectContaining({ id: south.id, parentId: root.id }),
      ]),
    );
    expect(picker.data?.getOrganisations).toHaveLength(3);
  });

  it('keeps a school admin to their school: the district and a sibling school are refused', async () => {
    const { root, north, south } = await district();
    const headers = await adminOf(north.id);
    expect((await teachersOf(north.id, headers)).statusCode).toBe(200);
    expect((await teachersOf(south.id, headers)).statusCode).toBe(403);
    expect((await teachersOf(root.id, headers)).statusCode).toBe(403);
    const sibling = await graphql(t.app, headers, '{ getOrganisationById(id: "x") { id } }'.replace('"x"', `"${south.id}"`));
    expect(sibling.data).toBeNull();
    const picker = await graphql<{ getOrganisations: Array<{ id: string }> }>(t.app, headers, PICKER);
    expect(picker.data?.getOrganisations.map((o) => o.id)).toEqual([north.id]);
  });

  it('does not make a school’s library manager anything at the district or a sibling', async () => {
    const { root, north, south } = await district();
    const email = unique('manager');
    const { userId, headers } = await signIn(t.app, { email });
    await buildTeacher(t.app.db, { organisationId: north.id, email, user_id: userId, role: 400 });
    expect((await teachersOf(north.id, headers)).statusCode).toBe(200);
    expect((await teachersOf(root.id, headers)).statusCode).toBe(403);
    expect((await teachersOf(south.id, headers)).statusCode).toBe(403);
  });
});

describe('moving an organisation', () => {
  async function staff(): Promise<SignedInHeaders> {
    return (await signIn(t.app, { email: `staff-${Math.random().toString(36).slice(2, 8)}@${t.env.PROVIDER_EMAIL_DOMAIN}` })).headers;
  }

  it('is a provider-staff action, recorded, and access moves with the school', async () => {
    const { root, alone } = await district();
    const districtAdmin = await adminOf(root.id);
    const refused = await graphql(t.app, districtAdmin, MOVE, { orgId: alone.id, parentId: root.id });
    expect(refused.errors?.[0]).toMatchObject({ message: errorCatalogue.provider_staff_only.message, extensions: { code: 'provider_staff_only' } });

    const moved = await graphql(t.app, await staff(), MOVE, { orgId: alone.id, parentId: root.id });
    expect(moved.data).toEqual({ moveOrganisation: { id: alone.id, name: 'Standalone School', parentId: root.id } });
    expect((await teachersOf(alone.id, districtAdmin)).statusCode).toBe(200);
    const audit = await t.app.db.selectFrom('audit_events').select(['organisation_id', 'action']).where('action', '=', 'organisation.move').where(sql<boolean>`${alone.id} = ANY(target_ids)`).execute();
    expect(audit.map((a) => a.organisation_id).sort()).toEqual([alone.id, root.id].sort());

    const detached = await graphql(t.app, await staff(), MOVE, { orgId: alone.id, parentId: null });
    expect(detached.data).toEqual({ moveOrganisation: { id: alone.id, name: 'Standalone School', parentId: null } });
    expect((await teachersOf(alone.id, districtAdmin)).statusCode).toBe(403);
  });

  it('refuses a cycle and a tree deeper than three levels, with a clear message, and changes nothing', async () => {
    const { root, north } = await district();
    const headers = await staff();
    const cycle = await graphql(t.app, headers, MOVE, { orgId: root.id, parentId: north.id });
    expect(cycle.errors?.[0]).toMatchObject({ message: errorCatalogue.organisation_tree_cycle.message, extensions: { code: 'organisation_tree_cycle' } });
    const self = await graphql(t.app, headers, MOVE, { orgId: root.id, parentId: root.id });
    expect(self.errors?.[0]?.extensions?.code).toBe('organisation_tree_cycle');

    // A region over the district: three levels, allowed.
    const region = await buildOrganisation(t.app.db, { name: 'Region' });
    expect((await graphql(t.app, headers, MOVE, { orgId: root.id, parentId: region.id })).data).toBeTruthy();
    // A district with a school of its own, under a school: five levels, refused.
    const other = await buildOrganisation(t.app.db, { name: 'Other District' });
    await buildOrganisation(t.app.db, { name: 'Other School', parent_id: other.id });
    const deep = await graphql(t.app, headers, MOVE, { orgId: other.id, parentId: north.id });
    expect(deep.errors?.[0]).toMatchObject({ message: errorCatalogue.organisation_tree_depth.message, extensions: { code: 'organisation_tree_depth' } });
    const unknown = await graphql(t.app, headers, MOVE, { orgId: other.id, parentId: 'no-such-organisation' });
    expect(unknown.errors?.[0]?.extensions?.code).toBe('parent_not_found');
    const parents = await t.app.db.selectFrom('organisations').select(['id', 'parent_id']).where('id', 'in', [root.id, other.id]).orderBy('id').execute();
    expect(Object.fromEntries(parents.map((p) => [p.id, p.parent_id]))).toEqual({ [root.id]: region.id, [other.id]: null });
  });

  it('refuses a school under a school of another district, or of its own, naming both, and changes nothing', async () => {
    const { root, north, south, alone } = await district();
    const headers = await staff();
    const other = await buildOrganisation(t.app.db, { name: `Other District ${Math.random().toString(36).slice(2, 6)}` });
    const east = await buildOrganisation(t.app.db, { name: 'East School', parent_id: other.id });
    await buildTeacher(t.app.db, { organisationId: east.id, email: unique('teacher') });

    const refusals = [
      { moving: east, parent: north },
      { moving: alone, parent: north },
      { moving: south, parent: north },
    ];
    for (const { moving, parent } of refusals) {
      const refused = await graphql(t.app, headers, MOVE, { orgId: moving.id, parentId: parent.id });
      expect(refused.errors?.[0]).toMatchObject({
        message: `${moving.name} cannot be placed under ${parent.name}: ${parent.name} is a school of ${root.name}, not a district. Place ${moving.name} under a district.`,
        extensions: { code: 'organisation_parent_is_school', statusCode: errorCatalogue.organisation_parent_is_school.status },
      });
    }
    const parents = await t.app.db.selectFrom('organisations').select(['id', 'parent_id']).where('id', 'in', [east.id, alone.id, south.id]).execute();
    expect(Object.fromEntries(parents.map((p) => [p.id, p.parent_id]))).toEqual({ [east.id]: other.id, [alone.id]: null, [south.id]: root.id });
    const audited = await t.app.db.selectFrom('audit_events').select('id').where('action', '=', 'organisation.move').where(sql<boolean>`target_ids && ${sql.val([east.id, alone.id, south.id])}::text[]`).execute();
    expect(audited).toEqual([]);
  });

  it('lets a district take a school: one with schools under it, one at the top with teachers of its own, or an empty one under a region', async () => {
    const { root, alone } = await district();
    const headers = await staff();
    const move = async (orgId: string, parentId: string) => (await graphql(t.app, headers, MOVE, { orgId, parentId })).data;
    // A stand-alone school with teachers becomes a district when a school is first placed under it (as the demo's did).
    const mapleGrove = await buildOrganisation(t.app.db, { name: 'Maple School' });
    await buildTeacher(t.app.db, { organisationId: mapleGrove.id, email: unique('teacher') });
    expect(await move(alone.id, mapleGrove.id)).toEqual({ moveOrganisation: { id: alone.id, name: 'Standalone School', parentId: mapleGrove.id } });
    // Back to a district that has schools under it.
    expect(await move(alone.id, root.id)).toEqual({ moveOrganisation: { id: alone.id, name: 'Standalone School', parentId: root.id } });
    // A new district under a region, with no teachers of its own yet.
    const region = await buildOrganisation(t.app.db, { name: 'Region' });
    const fresh = await buildOrganisation(t.app.db, { name: 'New District', parent_id: region.id });
    expect(await move(alone.id, fresh.id)).toEqual({ moveOrganisation: { id: alone.id, name: 'Standalone School', parentId: fresh.id } });
  });

  it('is guarded in the database too: a direct write cannot make a cycle or a fourth level', async () => {
    const { root, north } = await district();
    await expect(t.app.db.updateTable('organisations').set({ parent_id: north.id }).where('id', '=', root.id).execute()).rejects.toThrow(/cycle/);
    const grandchild = await buildOrganisation(t.app.db, { parent_id: north.id });
    await expect(buildOrganisation(t.app.db, { parent_id: grandchild.id })).rejects.toThrow(/too deep/);
    const closure = await t.app.db.selectFrom('organisation_ancestors').select(['ancestor_id', 'depth']).where('organisation_id', '=', grandchild.id).orderBy('depth').execute();
    expect(closure).toEqual([{ ancestor_id: grandchild.id, depth: 0 }, { ancestor_id: north.id, depth: 1 }, { ancestor_id: root.id, depth: 2 }]);
  });
});
