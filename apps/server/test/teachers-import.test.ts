import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const importUrl = (orgId: string) => `${orgPath(orgId)}/members/import/teachers`;

describe('POST …/members/import/teachers', () => {
  it('creates pending teachers for new e-mails, reports existing ones, grants licences in order, and changes nothing the second time', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, quantity: 1 });
    const old = await buildTeacher(t.app.db, { organisationId: orgId, email: 'old@s.org', revoked_at: new Date() });
    const payload = {
      emails: ['First@S.org ', 'second@s.org', 'old@s.org', 'first@s.org'],
      licenses: { 'first@s.org': license.id, 'second@s.org': license.id },
    };
    const res = await t.app.inject({ method: 'POST', url: importUrl(orgId), headers, payload });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.newMembers.map((m: { email: string }) => m.email)).toEqual(['first@s.org', 'second@s.org']);
    expect(body.existingMembers).toEqual([{ id: old.id, email: 'old@s.org' }]);
    expect(body.licensesNotGranted).toEqual([{ email: 'second@s.org', licenseId: license.id }]);

    const list = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers`, headers });
    const members = list.json().members as Array<{ email: string; role: number; pending: boolean; license: { id: string } | null }>;
    expect(members.map((m) => [m.email, m.role, m.pending, m.license?.id ?? null])).toEqual([
      ['first@s.org', -600, true, license.id],
      ['second@s.org', -600, true, null],
    ]);
    // The removed teacher was reported, not silently brought back.
    expect((await t.app.inject({ url: `${orgPath(orgId)}/members/inactive-teachers`, headers })).json().members).toHaveLength(1);

    const again = await t.app.inject({ method: 'POST', url: importUrl(orgId), headers, payload });
    expect(again.json().newMembers).toEqual([]);
    expect(again.json().existingMembers).toHaveLength(3);
    const after = await t.app.inject({ url: `${orgPath(orgId)}/members/teachers`, headers });
    expect(after.json()).toEqual(list.json());
  });

  it("accepts the spec's bare list and audits the import", async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const res = await t.app.inject({ method: 'POST', url: importUrl(orgId), headers, payload: ['a@s.org', 'b@s.org'] });
    expect(res.json().newMembers).toHaveLength(2);
    const audit = await t.app.db.selectFrom('audit_events').selectAll().where('organisation_id', '=', orgId).where('action', '=', 'members.import').executeTakeFirstOrThrow();
    expect(audit.target_ids.sort()).toEqual(res.json().newMembers.map((m: { id: string }) => m.id).sort());
  });

  it('refuses a list with an invalid address, naming it, and imports nothing', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const res = await t.app.inject({ method: 'POST', url: importUrl(orgId), headers, payload: ['ok@s.org', 'not-an-email', 'x@'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: '2 invalid email addresses', invalidEmails: ['not-an-email', 'x@'] });
    expect((await t.app.inject({ url: `${orgPath(orgId)}/members/teachers`, headers })).json().members).toEqual([]);
  });

  it('answers 409 when a requested licence cannot be granted individually, and imports nothing', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const all = await buildLicense(t.app.db, { organisationId: orgId, apply_to_all: true });
    const res = await t.app.inject({ method: 'POST', url: importUrl(orgId), headers, payload: { emails: ['a@s.org'], licenses: { 'a@s.org': all.id } } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("The teachers couldn't be granted licenses");
    expect((await t.app.inject({ url: `${orgPath(orgId)}/members/teachers`, headers })).json().members).toEqual([]);
  });

  it('answers 403 to a library manager and to an admin of another organisation, 404 for a foreign licence', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const manager = await libraryManagerOf(t.app, orgId);
    const asManager = await t.app.inject({ method: 'POST', url: importUrl(orgId), headers: manager, payload: ['a@s.org'] });
    expect(asManager.statusCode).toBe(403);
    expect(asManager.json().message).toBe('Your account cannot perform this action');
    const other = await orgWithAdmin(t.app);
    expect((await t.app.inject({ method: 'POST', url: importUrl(orgId), headers: other.headers, payload: ['a@s.org'] })).statusCode).toBe(403);
    const foreign = await buildLicense(t.app.db, { organisationId: other.orgId });
    const res = await t.app.inject({ method: 'POST', url: importUrl(orgId), headers, payload: { emails: ['a@s.org'], licenses: { 'a@s.org': foreign.id } } });
    expect(res.statusCode).toBe(404);
  });

  it('refuses import in a domain organisation except to provider staff', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { is_domain: true });
    expect((await t.app.inject({ method: 'POST', url: importUrl(orgId), headers, payload: ['a@s.org'] })).statusCode).toBe(403);
    const staff = await orgWithAdmin(t.app, { is_domain: true }, `staff-${Date.now()}@${t.env.PROVIDER_EMAIL_DOMAIN}`);
    expect((await t.app.inject({ method: 'POST', url: importUrl(staff.orgId), headers: staff.headers, payload: ['a@s.org'] })).statusCode).toBe(200);
  });
});
