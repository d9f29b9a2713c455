import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const putUrl = (orgId: string, licenseId: string) => `${orgPath(orgId)}/licenses/${licenseId}`;

async function holders(licenseId: string): Promise<string[]> {
  const rows = await t.app.db.selectFrom('members').select('id').where('license_id', '=', licenseId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

describe('PUT …/licenses/:licenseId', () => {
  it('assigns while licences remain, not counting teachers already on it, and refuses with the exact message beyond', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, quantity: 3, book_quota: 1000 });
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => buildTeacher(t.app.db, { organisationId: orgId })));
    const first = await t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers, payload: [a!.id, b!.id] });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ licenseId: license.id, allocated: 2, available: 1 });

    // a and b are already on it: only c needs a licence.
    const again = await t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers, payload: [a!.id, b!.id, c!.id] });
    expect(again.json()).toMatchObject({ assignedMemberIds: [c!.id], allocated: 3, available: 0 });

    const over = await t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers, payload: [d!.id] });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(
      'Not enough 1000 book licenses available. You have 0 available, please purchase more licenses or select fewer teachers to assign.',
    );
    expect(await holders(license.id)).toEqual([a!.id, b!.id, c!.id].sort());
    const audit = await t.app.db.selectFrom('audit_events').select(['target_ids', 'outcome']).where('organisation_id', '=', orgId).where('action', '=', 'licenses.assign').orderBy('id').execute();
    // The refusal is recorded as refused; it changed nothing.
    expect(audit.map((r) => [r.target_ids.length, r.outcome])).toEqual([[2, 'success'], [1, 'success'], [1, 'refused']]);
  });

  it('never over-allocates when two admins assign the last licence at the same moment', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, quantity: 1 });
    const [a, b] = await Promise.all([1, 2].map(() => buildTeacher(t.app.db, { organisationId: orgId })));
    const [r1, r2] = await Promise.all([
      t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers, payload: [a!.id] }),
      t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers, payload: [b!.id] }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 409]);
    expect(await holders(license.id)).toHaveLength(1);
  });

  it('refuses apply-to-all licences, domain organisations and removed teachers', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const all = await buildLicense(t.app.db, { organisationId: orgId, apply_to_all: true });
    expect((await t.app.inject({ method: 'PUT', url: putUrl(orgId, all.id), headers, payload: [teacher.id] })).statusCode).toBe(409);
    const license = await buildLicense(t.app.db, { organisationId: orgId });
    const removed = await buildTeacher(t.app.db, { organisationId: orgId, revoked_at: new Date() });
    expect((await t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers, payload: [removed.id] })).statusCode).toBe(409);

    const domain = await orgWithAdmin(t.app, { is_domain: true });
    const dl = await buildLicense(t.app.db, { organisationId: domain.orgId });
    const dt = await buildTeacher(t.app.db, { organisationId: domain.orgId });
    expect((await t.app.inject({ method: 'PUT', url: putUrl(domain.orgId, dl.id), headers: domain.headers, payload: [dt.id] })).statusCode).toBe(403);
  });

  it('refuses library managers (403) and anything of another organisation (403/404)', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const manager = await libraryManagerOf(t.app, orgId);
    expect((await t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers: manager, payload: [teacher.id] })).statusCode).toBe(403);

    const other = await orgWithAdmin(t.app);
    const otherLicense = await buildLicense(t.app.db, { organisationId: other.orgId });
    const otherTeacher = await buildTeacher(t.app.db, { organisationId: other.orgId });
    // Another organisation's path, its licence through my path, its teacher on my licence.
    expect((await t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers: other.headers, payload: [teacher.id] })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: putUrl(orgId, otherLicense.id), headers, payload: [teacher.id] })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: putUrl(orgId, license.id), headers, payload: [otherTeacher.id] })).statusCode).toBe(404);
    expect(await holders(license.id)).toEqual([]);
  });
});
