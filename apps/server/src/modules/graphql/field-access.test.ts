import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { buildLicense, buildTeacher } from '../../../test/factories.js';
import { graphql, libraryManagerOf, orgPath, orgWithAdmin } from '../../../test/teachers.helpers.js';

/** What a library manager (spec §6) reads, field by field. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
}, 180_000);
afterAll(() => t?.close());

const EVERY_ORGANISATION_FIELD = `query($id: ID!) { getOrganisationById(id: $id) {
  id name isDomain
  features { orgLibraries studentPortfolios visitLibraries }
  licenses { id name allocated quantity available bookQuota libraryQuota applyToAll }
  admins { email }
  lti { consumerKey consumerSecret }
  settings { apps imageSearch }
} }`;

async function organisationWithEverything() {
  const a = await orgWithAdmin(t.app);
  await buildLicense(t.app.db, { organisationId: a.orgId, quantity: 5 });
  await t.app.db
    .insertInto('lti_credentials')
    .values({ organisation_id: a.orgId, consumer_key: `key-${a.orgId}`, consumer_secret: `secret-${a.orgId}` } as never)
    .execute();
  for (let i = 0; i < 3; i++) await buildTeacher(t.app.db, { organisationId: a.orgId });
  const manager = await libraryManagerOf(t.app, a.orgId);
  return { ...a, manager };
}

describe('Organisation fields for a library manager', () => {
  it('an admin reads every field', async () => {
    const o = await organisationWithEverything();
    const answer = await graphql<{ getOrganisationById: Record<string, unknown> }>(t.app, o.headers, EVERY_ORGANISATION_FIELD, { id: o.orgId });
    expect(answer.errors).toBeUndefined();
    const org = answer.data!.getOrganisationById;
    expect(org.admins).toEqual([{ email: o.email }]);
    expect(org.lti).toEqual({ consumerKey: `key-${o.orgId}`, consumerSecret: `secret-${o.orgId}` });
  });

  it('a library manager reads what browsing teachers needs, and no admin e-mail or LTI credential', async () => {
    const o = await organisationWithEverything();
    // The LTI credentials are refused outright (the lti module); everything else answers.
    const lti = await graphql(t.app, o.manager, EVERY_ORGANISATION_FIELD, { id: o.orgId });
    expect(lti.errors?.[0]?.extensions?.code).toBe('admin_required');
    expect(JSON.stringify(lti)).not.toContain(`secret-${o.orgId}`);
    const answer = await graphql<{ getOrganisationById: Record<string, unknown> }>(
      t.app,
      o.manager,
      EVERY_ORGANISATION_FIELD.replace('  lti { consumerKey consumerSecret }\n', ''),
      { id: o.orgId },
    );
    expect(answer.errors).toBeUndefined();
    const org = answer.data!.getOrganisationById;
    // Needed: which organisation, its features (orgLibraries, visitLibraries), its licences (home page).
    expect(org.id).toBe(o.orgId);
    expect(typeof org.name).toBe('string');
    expect(org.isDomain).toBe(false);
    expect(org.features).toEqual({ orgLibraries: true, studentPortfolios: false, visitLibraries: false });
    expect(org.licenses).toHaveLength(1);
    expect(org.settings).toEqual({ apps: {}, imageSearch: null });
    // Not needed: refused as empty values, so the console shows its read-only view.
    expect(org.admins).toEqual([]);
    expect(JSON.stringify(answer)).not.toContain(`secret-${o.orgId}`);
    expect(JSON.stringify(answer)).not.toContain(o.email);
  });

  it('getAdmins is for admins only', async () => {
    const o = await organisationWithEverything();
    const answer = await graphql(t.app, o.manager, '{ getAdmins(orgId: "' + o.orgId + '") { total admins { email } } }');
    expect(answer.errors?.[0]?.extensions?.statusCode).toBe(403);
    expect(JSON.stringify(answer)).not.toContain(o.email);
  });
});

describe('the teacher list for a library manager', () => {
  it('is read a page at a time, and the whole-list CSV export is refused', async () => {
    const o = await organisationWithEverything();
    for (let i = 0; i < 12; i++) await buildTeacher(t.app.db, { organisationId: o.orgId });
    const unpaged = await t.app.inject({ url: `${orgPath(o.orgId)}/members/teachers`, headers: o.manager });
    expect(unpaged.statusCode).toBe(200);
    const body = unpaged.json() as { members: unknown[]; total: number; pageSize?: number };
    expect(body.total).toBeGreaterThan(10);
    expect(body.members).toHaveLength(10);
    const asAdmin = await t.app.inject({ url: `${orgPath(o.orgId)}/members/teachers`, headers: o.headers });
    expect((asAdmin.json() as { members: unknown[] }).members.length).toBe(body.total);
    const exported = await t.app.inject({ url: `${orgPath(o.orgId)}/members/teachers/export.csv`, headers: o.manager });
    expect(exported.statusCode).toBe(403);
    expect((await t.app.inject({ url: `${orgPath(o.orgId)}/members/teachers/export.csv`, headers: o.headers })).statusCode).toBe(200);
  });
});
