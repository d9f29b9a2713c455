import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInHeaders } from './auth.js';
import { buildAdmin, buildOrganisation } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql } from './teachers.helpers.js';

// The Admin page across a district (docs/districts.md, "District views: Admin").

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const tag = () => Math.random().toString(36).slice(2, 8);
const GET = `query g($orgId: ID!) { getAdmins(orgId: $orgId, pageSize: 100) {
  admins { email organisationId organisationName inherited } total } }`;
type Entry = { email: string; organisationId: string; organisationName: string; inherited: boolean };

async function signedIn(email: string): Promise<SignedInHeaders> {
  return (await signIn(t.app, { email })).headers;
}

async function district() {
  const root = await buildOrganisation(t.app.db, { name: `Riverside ${tag()}` });
  const north = await buildOrganisation(t.app.db, { name: 'North Elementary', parent_id: root.id });
  const south = await buildOrganisation(t.app.db, { name: 'South Primary', parent_id: root.id });
  const k = tag();
  const districtAdmin = `chief-${k}@district.org`;
  const northAdmin = `head-${k}@north.org`;
  const southAdmin = `head-${k}@south.org`;
  await buildAdmin(t.app.db, { organisationId: root.id, email: districtAdmin });
  await buildAdmin(t.app.db, { organisationId: north.id, email: northAdmin });
  await buildAdmin(t.app.db, { organisationId: south.id, email: southAdmin });
  return { root, north, south, districtAdmin, northAdmin, southAdmin };
}

const admins = async (headers: SignedInHeaders, orgId: string) => {
  const answer = await graphql<{ getAdmins: { admins: Entry[]; total: number } }>(t.app, headers, GET, { orgId });
  return answer;
};

describe('getAdmins across a district', () => {
  it("lists the district's admins and each school's, with the school, on the district's page", async () => {
    const d = await district();
    const answer = await admins(await signedIn(d.districtAdmin), d.root.id);
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.getAdmins.admins.map((a) => [a.email, a.organisationName, a.inherited])).toEqual([
      [d.districtAdmin, d.root.name, false],
      [d.northAdmin, 'North Elementary', false],
      [d.southAdmin, 'South Primary', false],
    ]);
    expect(answer.data?.getAdmins.total).toBe(3);
  });

  it("shows a school the district's admins as inherited, never a sibling school's, and does not let the school remove them", async () => {
    const d = await district();
    const headers = await signedIn(d.northAdmin);
    const answer = await admins(headers, d.north.id);
    expect(answer.data?.getAdmins.admins.map((a) => [a.email, a.organisationName, a.inherited])).toEqual([
      [d.districtAdmin, d.root.name, true],
      [d.northAdmin, 'North Elementary', false],
    ]);
    const removed = await graphql<{ deleteAdmins: { removed: string[] } }>(
      t.app, headers, 'mutation r($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }',
      { orgId: d.north.id, emails: [d.districtAdmin] },
    );
    expect(removed.data?.deleteAdmins.removed).toEqual([]);
    const still = await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', d.root.id).execute();
    expect(still.map((a) => a.email)).toEqual([d.districtAdmin]);
    // The district's own page stays theirs: a school admin is refused it.
    const refused = await admins(headers, d.root.id);
    expect(refused.errors?.[0]?.extensions?.code).toBe('organisation_forbidden');
  });

  it("adds and removes the district's own admins at the district, as at any organisation", async () => {
    const d = await district();
    const headers = await signedIn(d.districtAdmin);
    const added = `deputy-${tag()}@district.org`;
    const imported = await graphql(t.app, headers, 'mutation a($orgId: ID!, $emails: [String!]!) { importAdmins(orgId: $orgId, emails: $emails) { added } }', { orgId: d.root.id, emails: [added] });
    expect(imported.data).toEqual({ importAdmins: { added: [added] } });
    const schoolView = await admins(await signedIn(d.southAdmin), d.south.id);
    expect(schoolView.data?.getAdmins.admins.filter((a) => a.inherited).map((a) => a.email).sort()).toEqual([d.districtAdmin, added].sort());
    const removed = await graphql(t.app, headers, 'mutation r($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }', { orgId: d.root.id, emails: [added] });
    expect(removed.data).toEqual({ deleteAdmins: { removed: [added] } });
  });
});
