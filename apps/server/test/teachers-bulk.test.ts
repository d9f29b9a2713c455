import { notEnoughLicensesMessage, selectionChangedMessage } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicense, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const bulkUrl = (orgId: string) => `${orgPath(orgId)}/members/teachers/bulk`;

/** An organisation with 3 pending and 2 signed-up teachers, one removed pending teacher and one pending student. */
async function school(quantity = 10) {
  const admin = await orgWithAdmin(t.app);
  const license = await buildLicense(t.app.db, { organisationId: admin.orgId, quantity, book_quota: 40 });
  const pending = await Promise.all([1, 2, 3].map((n) => buildTeacher(t.app.db, { organisationId: admin.orgId, pending: true, role: -600, email: `p${n}-${admin.orgId.slice(0, 6)}@school.org` })));
  const signedUp = await Promise.all([1, 2].map(() => buildTeacher(t.app.db, { organisationId: admin.orgId })));
  const removed = await buildTeacher(t.app.db, { organisationId: admin.orgId, pending: true, role: -600, revoked_at: new Date() });
  const student = await buildTeacher(t.app.db, { organisationId: admin.orgId, pending: true, is_student: true });
  const bulk = (payload: unknown, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'POST', url: bulkUrl(admin.orgId), headers, payload: payload as object });
  return { ...admin, license, pending, signedUp, removed, student, bulk };
}

async function licenseOf(ids: string[]): Promise<Record<string, string | null>> {
  const rows = await t.app.db.selectFrom('members').select(['id', 'license_id']).where('id', 'in', ids).execute();
  return Object.fromEntries(rows.map((r) => [r.id, r.license_id]));
}

describe('POST …/members/teachers/bulk (Select all n teachers)', () => {
  it('assigns a licence to exactly the active teachers the filters match, in one change', async () => {
    const s = await school();
    const res = await s.bulk({ action: 'assign-license', licenseId: s.license.id, selection: { filter: { signedUp: 'no' }, expectedCount: 3 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ action: 'assign-license', matched: 3, changed: 3, allocated: 3, available: 7 });
    const licenses = await licenseOf([...s.pending, ...s.signedUp, s.removed, s.student].map((m) => m.id));
    for (const m of s.pending) expect(licenses[m.id]).toBe(s.license.id);
    // Signed-up teachers, a removed teacher and a student are not in the Active list's 'Signed up: No'.
    for (const m of [...s.signedUp, s.removed, s.student]) expect(licenses[m.id]).toBeNull();
    const audit = await t.app.db.selectFrom('audit_events').select(['target_ids', 'details']).where('organisation_id', '=', s.orgId).where('action', '=', 'licenses.assign').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.target_ids).toHaveLength(3);
    expect(audit[0]?.details).toMatchObject({ selection: { filter: { signedUp: 'no' }, count: 3 } });

    // Again: every one is already on it, so nothing changes and no seat is used.
    const again = await s.bulk({ action: 'assign-license', licenseId: s.license.id, selection: { filter: { signedUp: 'no' }, expectedCount: 3 } });
    expect(again.json()).toMatchObject({ matched: 3, changed: 0, allocated: 3 });
  });

  it('refuses, changing nothing, when the filters no longer match the count the admin saw', async () => {
    const s = await school();
    const res = await s.bulk({ action: 'assign-license', licenseId: s.license.id, selection: { filter: { signedUp: 'no' }, expectedCount: 4 } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'selection_changed', message: selectionChangedMessage(4, 3), matching: 3 });
    expect(Object.values(await licenseOf(s.pending.map((m) => m.id)))).toEqual([null, null, null]);
  });

  it('refuses the whole set with the §5 text when the licence cannot cover it', async () => {
    const s = await school(2);
    const res = await s.bulk({ action: 'assign-license', licenseId: s.license.id, selection: { filter: {}, expectedCount: 5 } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'not_enough_licenses', message: notEnoughLicensesMessage(40, 2) });
    expect(Object.values(await licenseOf([...s.pending, ...s.signedUp].map((m) => m.id))).every((v) => v === null)).toBe(true);
  });

  it('removes the licence of every teacher matching a search and a licence filter', async () => {
    const s = await school();
    await t.app.db.updateTable('members').set({ license_id: s.license.id }).where('id', 'in', [...s.pending, ...s.signedUp].map((m) => m.id)).execute();
    const res = await s.bulk({ action: 'remove-license', selection: { filter: { license: s.license.id, search: 'P2-' }, expectedCount: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ action: 'remove-license', matched: 1, changed: 1 });
    const licenses = await licenseOf([...s.pending, ...s.signedUp].map((m) => m.id));
    expect(Object.values(licenses).filter((v) => v === null)).toHaveLength(1);
    expect(licenses[s.pending[1]!.id]).toBeNull();
  });

  it('refuses an identical request replayed with the same key', async () => {
    const s = await school();
    const payload = { action: 'remove-license', selection: { filter: { signedUp: 'yes' }, expectedCount: 2 } };
    const headers = { ...s.headers, 'idempotency-key': 'bulk-remove-1' };
    expect((await s.bulk(payload, headers)).statusCode).toBe(200);
    const replay = await s.bulk(payload, headers);
    expect(replay.statusCode).toBe(409);
    expect(replay.json().code).toBe('duplicate_request');
  });

  it('is for admins only, never in a domain organisation, and checks its input', async () => {
    const s = await school();
    const valid = { action: 'remove-license', selection: { filter: {}, expectedCount: 5 } };
    const manager = await libraryManagerOf(t.app, s.orgId);
    expect((await s.bulk(valid, manager)).statusCode).toBe(403);
    const other = await orgWithAdmin(t.app);
    expect((await s.bulk(valid, other.headers)).statusCode).toBe(403);
    for (const bad of [
      {},
      { action: 'delete-everyone', selection: { filter: {}, expectedCount: 1 } },
      { action: 'assign-license', selection: { filter: {}, expectedCount: 1 } },
      { action: 'remove-license', selection: { filter: { signedUp: 'maybe' }, expectedCount: 1 } },
      { action: 'remove-license', selection: { filter: {}, expectedCount: 0 } },
    ]) {
      expect((await s.bulk(bad)).statusCode).toBe(400);
    }
    // 5 teachers and the library manager just made.
    const unknownLicense = await s.bulk({ action: 'assign-license', licenseId: 'nope', selection: { filter: {}, expectedCount: 6 } });
    expect(unknownLicense.statusCode).toBe(404);

    const domain = await orgWithAdmin(t.app, { is_domain: true });
    await buildTeacher(t.app.db, { organisationId: domain.orgId });
    const refused = await t.app.inject({ method: 'POST', url: bulkUrl(domain.orgId), headers: domain.headers, payload: { action: 'remove-license', selection: { filter: {}, expectedCount: 1 } } });
    expect(refused.statusCode).toBe(403);
  });
});
