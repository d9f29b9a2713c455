import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildLicense, buildOrganisation } from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

function gql(headers: Partial<SignedInHeaders>, query: string, variables: Record<string, unknown> = {}) {
  return t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
}

const LIST = 'query getOrganisations { getOrganisations { id name } }';
const ONE = `query getOrganisationById($id: ID!) { getOrganisationById(id: $id) {
  id name isDomain features { orgLibraries studentPortfolios visitLibraries }
  licenses { id allocated quantity available bookQuota libraryQuota applyToAll }
  admins { email } lti { consumerKey consumerSecret } settings { apps imageSearch } } }`;

describe('getOrganisations', () => {
  it('lists only the organisations the actor administers or manages libraries in, by name', async () => {
    const email = unique('picker');
    const zebra = await buildOrganisation(t.app.db, { name: 'Zebra Primary' });
    const apple = await buildOrganisation(t.app.db, { name: 'Apple High' });
    const managed = await buildOrganisation(t.app.db, { name: 'Maple Middle', org_libraries: true });
    const managedOff = await buildOrganisation(t.app.db, { name: 'Birch Elementary', org_libraries: false });
    const teacherOnly = await buildOrganisation(t.app.db, { name: 'Cedar Academy', org_libraries: true });
    const someoneElses = await buildOrganisation(t.app.db, { name: 'Aardvark School' });
    await t.app.db.insertInto('admins').values([
      { organisation_id: zebra.id, email },
      { organisation_id: apple.id, email },
      { organisation_id: someoneElses.id, email: unique('other-admin') },
    ]).execute();
    await t.app.db.insertInto('members').values([
      { id: crypto.randomUUID(), organisation_id: managed.id, email, role: 400, pending: false },
      { id: crypto.randomUUID(), organisation_id: managedOff.id, email, role: 400, pending: false },
      { id: crypto.randomUUID(), organisation_id: teacherOnly.id, email, role: 600, pending: false },
    ]).execute();

    const { headers } = await signIn(t.app, { email });
    const response = await gql(headers, LIST);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.getOrganisations).toEqual([
      { id: apple.id, name: 'Apple High' },
      { id: managed.id, name: 'Maple Middle' },
      { id: zebra.id, name: 'Zebra Primary' },
    ]);
  });

  it('answers unauthorised without a session and email_not_verified for an unverified user', async () => {
    const anonymous = await gql({ origin: new URL(t.env.PUBLIC_URL ?? '').origin }, LIST);
    expect(anonymous.json().errors[0].extensions.code).toBe('unauthorised');
    const email = unique('unverified');
    const org = await buildOrganisation(t.app.db);
    await t.app.db.insertInto('admins').values({ organisation_id: org.id, email }).execute();
    const { headers } = await signIn(t.app, { email, verified: false });
    const response = await gql(headers, LIST);
    expect(response.json().errors[0].extensions.code).toBe('email_not_verified');
  });
});

describe('getOrganisationById', () => {
  it('returns the organisation entity to its admin', async () => {
    const email = unique('admin');
    const org = await buildOrganisation(t.app.db, { name: 'Oak School', is_domain: true, student_portfolios: true, settings: JSON.stringify({ apps: { giphy: -1 }, imageSearch: 'pixabay' }) });
    const license = await buildLicense(t.app.db, { organisation_id: org.id, quantity: 5, book_quota: 40, library_quota: null, apply_to_all: true });
    await t.app.db.insertInto('members').values({ id: crypto.randomUUID(), organisation_id: org.id, email: unique('holder'), license_id: license.id }).execute();
    await t.app.db.insertInto('admins').values({ organisation_id: org.id, email }).execute();
    await t.app.db.insertInto('lti_credentials').values({ organisation_id: org.id, consumer_key: `key-${org.id}`, consumer_secret: 'shh' }).execute();
    const { headers } = await signIn(t.app, { email });

    const response = await gql(headers, ONE, { id: org.id });
    expect(response.json().errors).toBeUndefined();
    expect(response.json().data.getOrganisationById).toEqual({
      id: org.id,
      name: 'Oak School',
      isDomain: true,
      features: { orgLibraries: false, studentPortfolios: true, visitLibraries: false },
      licenses: [{ id: license.id, allocated: 1, quantity: 5, available: 4, bookQuota: 40, libraryQuota: 'UNLIMITED', applyToAll: true }],
      admins: [{ email }],
      lti: { consumerKey: `key-${org.id}`, consumerSecret: 'shh' },
      settings: { apps: { giphy: -1 }, imageSearch: 'pixabay' },
    });
  });

  it('refuses another tenant (organisation_forbidden) and an unknown id (organisation_not_found)', async () => {
    const mine = await buildOrganisation(t.app.db);
    const theirs = await buildOrganisation(t.app.db);
    const email = unique('tenant');
    await t.app.db.insertInto('admins').values({ organisation_id: mine.id, email }).execute();
    const { headers } = await signIn(t.app, { email });
    const forbidden = await gql(headers, ONE, { id: theirs.id });
    expect(forbidden.json().data).toBeNull();
    expect(forbidden.json().errors[0].extensions.code).toBe('organisation_forbidden');
    const missing = await gql(headers, ONE, { id: 'no-such-org' });
    expect(missing.json().errors[0].extensions.code).toBe('organisation_not_found');
  });
});

describe('getOrganisationById { access }', () => {
  const ACCESS = 'query getOrganisationAccess($id: ID!) { getOrganisationById(id: $id) { id access } }';

  it("answers the signed-in user's access, decided once by the server: admin, or library-manager", async () => {
    const org = await buildOrganisation(t.app.db, { org_libraries: true });
    const admin = unique('access-admin');
    const manager = unique('access-manager');
    await t.app.db.insertInto('admins').values({ organisation_id: org.id, email: admin }).execute();
    await t.app.db.insertInto('members').values({ id: crypto.randomUUID(), organisation_id: org.id, email: manager, role: 400, pending: false }).execute();
    const asAdmin = await gql((await signIn(t.app, { email: admin })).headers, ACCESS, { id: org.id });
    expect(asAdmin.json().data.getOrganisationById).toEqual({ id: org.id, access: 'admin' });
    const asManager = await gql((await signIn(t.app, { email: manager })).headers, ACCESS, { id: org.id });
    expect(asManager.json().data.getOrganisationById).toEqual({ id: org.id, access: 'library-manager' });
  });

  it('agrees with the ID token: an admin matched by user id rather than e-mail is an admin', async () => {
    const org = await buildOrganisation(t.app.db);
    const email = unique('by-user-id');
    const { headers, userId } = await signIn(t.app, { email });
    await t.app.db.insertInto('admins').values({ organisation_id: org.id, email: unique('old-address'), user_id: userId }).execute();
    const answer = await gql(headers, ACCESS, { id: org.id });
    expect(answer.json().data.getOrganisationById).toEqual({ id: org.id, access: 'admin' });
  });
});
