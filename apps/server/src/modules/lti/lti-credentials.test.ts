import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../../test/factories.js';
import { encryptPlaintextSecrets } from './lti-credentials.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ PUBLIC_URL: 'https://quire.example-district.org' });
});
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
const READ = 'query getOrganisationById($id: ID!) { getOrganisationById(id: $id) { id lti { consumerKey consumerSecret launchUrl domain cartridgeUrl } } }';
const GENERATE = 'mutation generateLTICredentials($orgId: ID!) { generateLTICredentials(orgId: $orgId) { consumerKey consumerSecret launchUrl } }';
const REVOKE = 'mutation revokeLTICredentials($orgId: ID!) { revokeLTICredentials(orgId: $orgId) { consumerKey consumerSecret } }';

function gql(headers: Partial<SignedInHeaders>, query: string, variables: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
}

async function adminOf(orgId: string) {
  const email = unique('admin');
  await buildAdmin(t.app.db, { organisationId: orgId, email });
  return (await signIn(t.app, { email })).headers;
}

async function storedRow(orgId: string) {
  return t.app.db.selectFrom('lti_credentials').selectAll().where('organisation_id', '=', orgId).executeTakeFirst();
}

describe('LTI credentials', () => {
  it('generates a random key and a 256-bit secret, stores the secret encrypted, and shows it to admins', async () => {
    const org = await buildOrganisation(t.app.db);
    const headers = await adminOf(org.id);
    const empty = await gql(headers, READ, { id: org.id });
    expect(empty.json().data.getOrganisationById.lti).toEqual({
      consumerKey: null,
      consumerSecret: null,
      launchUrl: 'https://quire.example-district.org/lti/launch',
      domain: 'quire.example-district.org',
      cartridgeUrl: 'https://quire.example-district.org/lti/cartridge.xml',
    });

    const generated = (await gql(headers, GENERATE, { orgId: org.id })).json().data.generateLTICredentials;
    expect(generated.consumerKey).toMatch(/^[0-9a-f]{32}$/);
    expect(Buffer.from(generated.consumerSecret, 'base64url').length).toBeGreaterThanOrEqual(16);
    const row = await storedRow(org.id);
    expect(row?.consumer_secret.startsWith('enc:v1:')).toBe(true);
    expect(row?.consumer_secret).not.toContain(generated.consumerSecret);

    const read = await gql(headers, READ, { id: org.id });
    expect(read.json().data.getOrganisationById.lti).toMatchObject({ consumerKey: generated.consumerKey, consumerSecret: generated.consumerSecret });

    // Two generations never give the same credentials.
    const other = await buildOrganisation(t.app.db);
    const second = (await gql(await adminOf(other.id), GENERATE, { orgId: other.id })).json().data.generateLTICredentials;
    expect(second.consumerKey).not.toBe(generated.consumerKey);
    expect(second.consumerSecret).not.toBe(generated.consumerSecret);
  });

  it('refuses a second generation while credentials exist, and revokes them (audited, without the secret)', async () => {
    const org = await buildOrganisation(t.app.db);
    const headers = await adminOf(org.id);
    const generated = (await gql(headers, GENERATE, { orgId: org.id })).json().data.generateLTICredentials;
    const again = await gql(headers, GENERATE, { orgId: org.id });
    expect(again.json().errors[0].extensions.code).toBe('lti_credentials_exist');

    const revoked = await gql(headers, REVOKE, { orgId: org.id });
    expect(revoked.json().data.revokeLTICredentials).toEqual({ consumerKey: null, consumerSecret: null });
    expect(await storedRow(org.id)).toBeUndefined();
    const audit = await t.app.db.selectFrom('audit_events').select(['action', 'target_ids', 'details']).where('organisation_id', '=', org.id).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['lti.generate', 'lti.revoke']);
    expect(JSON.stringify(audit)).not.toContain(generated.consumerSecret);
  });

  it('gives a library manager, another organisation’s admin, a teacher and a signed-out caller no secret, and lets none of them change anything', async () => {
    const org = await buildOrganisation(t.app.db, { org_libraries: true });
    const admin = await adminOf(org.id);
    const generated = (await gql(admin, GENERATE, { orgId: org.id })).json().data.generateLTICredentials;
    const managerEmail = unique('manager');
    await buildTeacher(t.app.db, { organisation_id: org.id, email: managerEmail, role: 400 });
    const manager = (await signIn(t.app, { email: managerEmail })).headers;
    const teacherEmail = unique('teacher');
    await buildTeacher(t.app.db, { organisation_id: org.id, email: teacherEmail });
    const teacher = (await signIn(t.app, { email: teacherEmail })).headers;
    const stranger = await adminOf((await buildOrganisation(t.app.db)).id);
    const signedOut = { origin: admin.origin };

    for (const [who, headers] of [['library manager', manager], ['other admin', stranger], ['teacher', teacher], ['signed out', signedOut]] as const) {
      const read = await gql(headers, READ, { id: org.id });
      expect(read.body, who).not.toContain(generated.consumerSecret);
      expect(read.json().errors?.length, who).toBeGreaterThan(0);
      for (const mutation of [GENERATE, REVOKE]) {
        const change = await gql(headers, mutation, { orgId: org.id });
        expect(change.json().data, who).toBeNull();
        expect(change.body, who).not.toContain(generated.consumerSecret);
      }
    }
    // The library manager reads the rest of the organisation, but the lti field is refused.
    const managerRead = await gql(manager, READ, { id: org.id });
    expect(managerRead.json().errors[0].extensions.code).toBe('admin_required');
    expect((await storedRow(org.id))?.consumer_key).toBe(generated.consumerKey);
  });

  it('encrypts a secret an earlier version stored in plaintext', async () => {
    const org = await buildOrganisation(t.app.db);
    await t.app.db.insertInto('lti_credentials').values({ organisation_id: org.id, consumer_key: `legacy-${org.id}`, consumer_secret: 'legacy-plain-secret' }).execute();
    expect(await encryptPlaintextSecrets(t.app.db, t.env)).toBeGreaterThanOrEqual(1);
    expect((await storedRow(org.id))?.consumer_secret.startsWith('enc:v1:')).toBe(true);
    const read = await gql(await adminOf(org.id), READ, { id: org.id });
    expect(read.json().data.getOrganisationById.lti.consumerSecret).toBe('legacy-plain-secret');
  });
});
