import { errorCatalogue, notEnoughAllocatedLicensesMessage, type LicenseAllocations } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedInHeaders } from './auth.js';
import { buildAdmin, buildLicense, buildOrganisation, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql, libraryManagerOf, orgPath } from './teachers.helpers.js';

// Seats of a district licence allocated to its schools (docs/districts.md, "Licences across the district").

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const suffix = () => Math.random().toString(36).slice(2, 8);
const allocationsUrl = (orgId: string, licenseId: string) => `${orgPath(orgId)}/licenses/${licenseId}/allocations`;
const allocationUrl = (orgId: string, licenseId: string, schoolId: string) => `${allocationsUrl(orgId, licenseId)}/${schoolId}`;
const LICENSES = `query q($id: ID!) { getOrganisationById(id: $id) {
  licenses { id name allocated quantity available applyToAll allocatedBy { organisationId organisationName licenseId } allocations { organisationId organisationName seats assigned } }
} }`;

interface GraphqlLicense {
  id: string;
  name: string;
  allocated: number;
  quantity: number;
  available: number;
  allocatedBy: { organisationId: string; organisationName: string; licenseId: string } | null;
  allocations: Array<{ organisationId: string; organisationName: string; seats: number; assigned: number }>;
}

async function adminOf(orgId: string): Promise<SignedInHeaders> {
  const admin = await buildAdmin(t.app.db, { organisationId: orgId, email: `admin-${suffix()}@district.example.org` });
  return (await signIn(t.app, { email: admin.email })).headers;
}

/** A district holding a 10-seat licence, two schools below it, a stand-alone school, and a district admin. */
async function district(quantity = 10) {
  const root = await buildOrganisation(t.app.db, { name: `District ${suffix()}` });
  const north = await buildOrganisation(t.app.db, { name: 'North School', parent_id: root.id });
  const south = await buildOrganisation(t.app.db, { name: 'South School', parent_id: root.id });
  const alone = await buildOrganisation(t.app.db, { name: 'Standalone School' });
  const license = await buildLicense(t.app.db, { organisationId: root.id, name: 'District Premium', quantity, book_quota: 1000 });
  return { root, north, south, alone, license, headers: await adminOf(root.id) };
}

function allocate(headers: SignedInHeaders, orgId: string, licenseId: string, schoolId: string, seats: unknown, extra: Record<string, string> = {}) {
  return t.app.inject({ method: 'PUT', url: allocationUrl(orgId, licenseId, schoolId), headers: { ...headers, ...extra }, payload: { seats } });
}

async function licensesOf(orgId: string, headers: SignedInHeaders): Promise<GraphqlLicense[]> {
  const answer = await graphql<{ getOrganisationById: { licenses: GraphqlLicense[] } }>(t.app, headers, LICENSES, { id: orgId });
  expect(answer.errors).toBeUndefined();
  return answer.data!.getOrganisationById.licenses;
}

async function shareOf(schoolId: string, headers: SignedInHeaders): Promise<GraphqlLicense> {
  const share = (await licensesOf(schoolId, headers)).find((l) => l.allocatedBy !== null);
  expect(share).toBeDefined();
  return share!;
}

const assign = (orgId: string, licenseId: string, headers: SignedInHeaders, memberIds: string[]) =>
  t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${licenseId}`, headers, payload: memberIds });

describe('allocating seats of a district licence', () => {
  it("gives a school a licence it can assign, with its share as quantity, and shows the district's figures", async () => {
    const { root, north, south, license, headers } = await district();
    const answer = await allocate(headers, root.id, license.id, north.id, 4);
    expect(answer.statusCode).toBe(200);
    expect(answer.json<LicenseAllocations>()).toEqual({
      licenseId: license.id, name: 'District Premium', quantity: 10, assignedHere: 0, allocatedToSchools: 4, available: 6,
      allocations: [
        { organisationId: north.id, organisationName: 'North School', seats: 4, assigned: 0 },
        { organisationId: south.id, organisationName: 'South School', seats: 0, assigned: 0 },
      ],
    });

    const share = await shareOf(north.id, headers);
    expect(share).toMatchObject({ name: 'District Premium', quantity: 4, allocated: 0, available: 4, allocations: [] });
    expect(share.allocatedBy).toEqual({ organisationId: root.id, organisationName: root.name, licenseId: license.id });
    const [teacher] = await Promise.all([buildTeacher(t.app.db, { organisationId: north.id })]);
    expect((await assign(north.id, share.id, headers, [teacher!.id])).statusCode).toBe(200);

    const [districtLicense] = await licensesOf(root.id, headers);
    expect(districtLicense).toMatchObject({ quantity: 10, allocated: 4, available: 6, allocatedBy: null });
    expect(districtLicense!.allocations).toEqual([
      { organisationId: north.id, organisationName: 'North School', seats: 4, assigned: 1 },
      { organisationId: south.id, organisationName: 'South School', seats: 0, assigned: 0 },
    ]);
    const read = await t.app.inject({ method: 'GET', url: allocationsUrl(root.id, license.id), headers });
    expect(read.statusCode).toBe(200);
    expect(read.json<LicenseAllocations>().allocations[0]).toEqual({ organisationId: north.id, organisationName: 'North School', seats: 4, assigned: 1 });
    const audit = await t.app.db.selectFrom('audit_events').select('organisation_id').where('action', '=', 'licenses.allocate').where('organisation_id', 'in', [root.id, north.id]).execute();
    expect(audit.map((a) => a.organisation_id).sort()).toEqual([root.id, north.id].sort());
  });

  it('lets a school assign up to its allocation and refuses one more with a message naming the district', async () => {
    const { root, north, license, headers } = await district();
    await allocate(headers, root.id, license.id, north.id, 2);
    const share = await shareOf(north.id, headers);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => buildTeacher(t.app.db, { organisationId: north.id })));
    expect((await assign(north.id, share.id, headers, [a!.id, b!.id])).statusCode).toBe(200);
    const over = await assign(north.id, share.id, headers, [c!.id]);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'not_enough_allocated_licenses', message: notEnoughAllocatedLicensesMessage(1000, 0, root.name) });
    const holders = await t.app.db.selectFrom('members').select('id').where('license_id', '=', share.id).execute();
    expect(holders).toHaveLength(2);
  });

  it('never allocates more than the district holds, counting the seats it assigns to its own teachers', async () => {
    const { root, north, south, license, headers } = await district(10);
    const own = await Promise.all([1, 2].map(() => buildTeacher(t.app.db, { organisationId: root.id })));
    expect((await assign(root.id, license.id, headers, own.map((m) => m.id))).statusCode).toBe(200);
    expect((await allocate(headers, root.id, license.id, north.id, 5)).statusCode).toBe(200);
    const over = await allocate(headers, root.id, license.id, south.id, 4);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      code: 'allocation_exceeds_license',
      message: `${root.name} holds 10 seats of District Premium and 7 of them are assigned or allocated to other schools, so at most 3 can be allocated to South School.`,
    });
    expect((await allocate(headers, root.id, license.id, south.id, 3)).statusCode).toBe(200);
    // Every seat is now allocated or assigned: the district cannot assign one more to its own teachers either.
    const third = await buildTeacher(t.app.db, { organisationId: root.id });
    const refused = await assign(root.id, license.id, headers, [third.id]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('not_enough_licenses');
    // Raising a school's own allocation counts its current seats once.
    expect((await allocate(headers, root.id, license.id, north.id, 6)).statusCode).toBe(409);
    expect((await allocate(headers, root.id, license.id, north.id, 5)).statusCode).toBe(200);
  });

  it('refuses to lower an allocation below what the school has assigned, and a full return removes the share', async () => {
    const { root, north, license, headers } = await district();
    await allocate(headers, root.id, license.id, north.id, 3);
    const share = await shareOf(north.id, headers);
    const teachers = await Promise.all([1, 2].map(() => buildTeacher(t.app.db, { organisationId: north.id })));
    await assign(north.id, share.id, headers, teachers.map((m) => m.id));
    const lower = await allocate(headers, root.id, license.id, north.id, 1);
    expect(lower.statusCode).toBe(409);
    expect(lower.json()).toMatchObject({
      code: 'allocation_below_assigned',
      message: 'North School has assigned 2 seats of District Premium, so its allocation cannot be lowered below 2. Remove licenses from its teachers first.',
    });
    expect((await shareOf(north.id, headers)).quantity).toBe(3);
    expect((await allocate(headers, root.id, license.id, north.id, 2)).json<LicenseAllocations>().allocatedToSchools).toBe(2);

    const removed = await graphql(t.app, headers, 'mutation r($orgId: ID!, $ids: [ID!]!) { removeLicenses(orgId: $orgId, memberIds: $ids) { memberIds } }', { orgId: north.id, ids: teachers.map((m) => m.id) });
    expect(removed.errors).toBeUndefined();
    const returned = await allocate(headers, root.id, license.id, north.id, 0);
    expect(returned.json<LicenseAllocations>()).toMatchObject({ allocatedToSchools: 0, available: 10 });
    expect((await licensesOf(north.id, headers)).filter((l) => l.allocatedBy)).toEqual([]);
  });

  it('refuses apply-to-all licences, domain schools and bad seat counts, changing nothing', async () => {
    const { root, north, license, headers } = await district();
    const all = await buildLicense(t.app.db, { organisationId: root.id, apply_to_all: true });
    expect((await allocate(headers, root.id, all.id, north.id, 1)).json().code).toBe('allocation_not_allowed');
    const domain = await buildOrganisation(t.app.db, { parent_id: root.id, is_domain: true });
    expect((await allocate(headers, root.id, license.id, domain.id, 1)).json().code).toBe('allocation_not_allowed');
    for (const seats of [-1, 1.5, '3', null, 1_000_001]) {
      const bad = await allocate(headers, root.id, license.id, north.id, seats);
      expect(bad.statusCode, String(seats)).toBe(400);
    }
    expect((await licensesOf(north.id, headers)).filter((l) => l.allocatedBy)).toEqual([]);
  });
});

describe('who may allocate', () => {
  it("refuses a school admin (403 at the district), a sibling school's ids (404) and a library manager (403)", async () => {
    const { root, north, south, alone, license, headers } = await district();
    await allocate(headers, root.id, license.id, south.id, 2);
    const southShare = await shareOf(south.id, headers);
    const northAdmin = await adminOf(north.id);

    expect((await allocate(northAdmin, root.id, license.id, north.id, 5)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: allocationsUrl(root.id, license.id), headers: northAdmin })).statusCode).toBe(403);
    // Through the school's own path: the district's licence and the sibling's share are not its licences.
    for (const id of [license.id, southShare.id]) {
      const read = await t.app.inject({ method: 'GET', url: allocationsUrl(north.id, id), headers: northAdmin });
      expect(read.statusCode, id).toBe(404);
      expect(read.json().code).toBe('license_not_found');
      expect((await allocate(northAdmin, north.id, id, south.id, 1)).statusCode, id).toBe(404);
    }
    // Its sibling's path: refused like any organisation it may not open.
    expect((await t.app.inject({ method: 'GET', url: allocationsUrl(south.id, southShare.id), headers: northAdmin })).statusCode).toBe(403);

    // A district admin cannot allocate to a school that is not directly below the district.
    const stray = await allocate(headers, root.id, license.id, alone.id, 1);
    expect(stray.statusCode).toBe(404);
    expect(stray.json().code).toBe('organisation_not_found');
    expect((await allocate(headers, root.id, license.id, root.id, 1)).statusCode).toBe(404);
    expect((await allocate(headers, root.id, 'no-such-licence', north.id, 1)).statusCode).toBe(404);

    const manager = await libraryManagerOf(t.app, root.id);
    expect((await allocate(manager, root.id, license.id, north.id, 1)).statusCode).toBe(403);
    expect((await shareOf(south.id, headers)).quantity).toBe(2);
    expect((await licensesOf(north.id, headers)).filter((l) => l.allocatedBy)).toEqual([]);
  });
});

describe('allocations under concurrency', () => {
  it('never over-allocates when two admins allocate at the same moment', async () => {
    const { root, north, south, license, headers } = await district(10);
    const other = await adminOf(root.id);
    const answers = await Promise.all([allocate(headers, root.id, license.id, north.id, 6), allocate(other, root.id, license.id, south.id, 6)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const seats = await t.app.db.selectFrom('licenses').select('quantity').where('allocated_from_license_id', '=', license.id).execute();
    expect(seats.map((s) => s.quantity)).toEqual([6]);
  });

  it('never leaves a school assigning beyond an allocation lowered at the same moment', async () => {
    const { root, north, license, headers } = await district();
    await allocate(headers, root.id, license.id, north.id, 2);
    const share = await shareOf(north.id, headers);
    const [a, b] = await Promise.all([1, 2].map(() => buildTeacher(t.app.db, { organisationId: north.id })));
    await assign(north.id, share.id, headers, [a!.id]);
    const northAdmin = await adminOf(north.id);
    const [lowered, assigned] = await Promise.all([allocate(headers, root.id, license.id, north.id, 1), assign(north.id, share.id, northAdmin, [b!.id])]);
    expect([lowered.statusCode, assigned.statusCode].sort()).toEqual([200, 409]);
    const row = await t.app.db.selectFrom('licenses').select('quantity').where('id', '=', share.id).executeTakeFirstOrThrow();
    const holders = await t.app.db.selectFrom('members').select('id').where('license_id', '=', share.id).execute();
    expect(holders.length).toBeLessThanOrEqual(row.quantity);
  });

  it('allocates once for one Idempotency-Key (a double click)', async () => {
    const { root, north, license, headers } = await district();
    const key = { 'idempotency-key': `allocate-${suffix()}` };
    const [first, second] = await Promise.all([allocate(headers, root.id, license.id, north.id, 3, key), allocate(headers, root.id, license.id, north.id, 3, key)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect([first, second].find((r) => r.statusCode === 409)!.json().code).toBe('duplicate_request');
    const audit = await t.app.db.selectFrom('audit_events').select('id').where('action', '=', 'licenses.allocate').where('organisation_id', '=', root.id).execute();
    expect(audit).toHaveLength(1);
  });
});

describe('refusals that protect the allocations', () => {
  const MOVE = 'mutation m($orgId: ID!, $parentId: ID) { moveOrganisation(orgId: $orgId, parentId: $parentId) { id parentId } }';

  it('refuses to move a school holding seats of its district until the district returns them', async () => {
    const { root, north, license, headers } = await district();
    const other = await buildOrganisation(t.app.db, { name: 'Other District' });
    await allocate(headers, root.id, license.id, north.id, 4);
    const staff = (await signIn(t.app, { email: `staff-${suffix()}@${t.env.PROVIDER_EMAIL_DOMAIN}` })).headers;
    for (const parentId of [other.id, null]) {
      const refused = await graphql(t.app, staff, MOVE, { orgId: north.id, parentId });
      expect(refused.errors?.[0]).toMatchObject({
        message: `North School holds seats allocated by ${root.name} (4 seats of District Premium). ${root.name} must return them (set the allocation to 0) before North School can be moved.`,
        extensions: { code: 'allocated_seats_held', statusCode: errorCatalogue.allocated_seats_held.status },
      });
    }
    expect((await t.app.db.selectFrom('organisations').select('parent_id').where('id', '=', north.id).executeTakeFirstOrThrow()).parent_id).toBe(root.id);
    await allocate(headers, root.id, license.id, north.id, 0);
    expect((await graphql(t.app, staff, MOVE, { orgId: north.id, parentId: other.id })).data).toEqual({ moveOrganisation: { id: north.id, parentId: other.id } });
  });

  const DELETE = 'mutation d($orgId: ID!, $emails: [String!]!) { deleteAdmins(orgId: $orgId, emails: $emails) { removed } }';

  it("refuses to remove a district's last admin, naming the schools that have no admin of their own", async () => {
    const root = await buildOrganisation(t.app.db, { name: `District ${suffix()}` });
    const north = await buildOrganisation(t.app.db, { name: 'North School', parent_id: root.id });
    const south = await buildOrganisation(t.app.db, { name: 'South School', parent_id: root.id });
    const admin = await buildAdmin(t.app.db, { organisationId: root.id });
    const headers = (await signIn(t.app, { email: admin.email })).headers;
    await buildAdmin(t.app.db, { organisationId: south.id });

    const refused = await graphql(t.app, headers, DELETE, { orgId: root.id, emails: [admin.email] });
    expect(refused.errors?.[0]).toMatchObject({
      message: `North School has no admins of its own and relies on ${root.name}'s, so its last admin can't be removed. Add another admin to ${root.name} first.`,
      extensions: { code: 'last_district_admin', statusCode: 409 },
    });
    // With an admin of its own at every school, the organisation's own rule still holds.
    await buildAdmin(t.app.db, { organisationId: north.id });
    expect((await graphql(t.app, headers, DELETE, { orgId: root.id, emails: [admin.email] })).errors?.[0]?.extensions?.code).toBe('last_admin');
    // With a second district admin, one may go.
    const second = await buildAdmin(t.app.db, { organisationId: root.id });
    expect((await graphql(t.app, headers, DELETE, { orgId: root.id, emails: [second.email] })).data).toEqual({ deleteAdmins: { removed: [second.email] } });
    expect(await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', root.id).execute()).toEqual([{ email: admin.email }]);
  });
});
