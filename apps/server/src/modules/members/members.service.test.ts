import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { buildAdmin, buildLicense, buildOrganisation, buildTeacher } from '../../../test/factories.js';
import { useTestDatabase } from '../../../test/helper.js';
import type { Actor } from '../access/actor.js';
import { importTeachers } from './import-teachers.service.js';
import { deleteMemberships, grantMembership, listTeachers, revokeMembership, updateMembershipRole } from './members.service.js';
import { convertToStudent } from './convert-student.service.js';

// Service-level tests of the SQL and rules; the HTTP contract is covered in test/teachers-*.test.ts.
let db: Kysely<DB>;
const PROVIDER = 'quire.app';

useTestDatabase((database) => {
  db = database.db;
});

async function adminOf(organisationId: string, email?: string): Promise<Actor> {
  const admin = await buildAdmin(db, { organisationId, email });
  return { userId: admin.user!.id, email: admin.email, displayName: 'Admin', emailVerified: true };
}

describe('listTeachers', () => {
  it('searches e-mail and name case-insensitively, sorts and pages with a total', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    await buildTeacher(db, { organisationId: org.id, email: 'zed@school.org', display_name: 'Alice Zed' });
    await buildTeacher(db, { organisationId: org.id, email: 'amy@school.org', display_name: 'Amy Brown' });
    await buildTeacher(db, { organisationId: org.id, email: 'bob@school.org', display_name: 'Bob Zimmer' });
    await buildTeacher(db, { organisationId: org.id, email: 'gone@school.org', display_name: 'Gone Zed', revoked_at: new Date() });
    await buildTeacher(db, { organisationId: org.id, email: 'kid@school.org', display_name: 'Zed Kid', is_student: true });
    await buildTeacher(db, { email: 'other-zed@school.org' }); // another organisation

    const all = await listTeachers(db, actor, { organisationId: org.id, status: 'active' });
    expect(all.members.map((m) => m.email)).toEqual(['amy@school.org', 'bob@school.org', 'zed@school.org']);

    const zed = await listTeachers(db, actor, { organisationId: org.id, status: 'active', search: 'ZE' });
    expect(zed.members.map((m) => m.email)).toEqual(['zed@school.org']);
    const zi = await listTeachers(db, actor, { organisationId: org.id, status: 'active', search: 'zIm' });
    expect(zi.members.map((m) => m.displayName)).toEqual(['Bob Zimmer']);

    const byName = await listTeachers(db, actor, { organisationId: org.id, status: 'active', sort: 'name', dir: 'desc', page: 1, pageSize: 10 });
    expect(byName.members.map((m) => m.displayName)).toEqual(['Bob Zimmer', 'Amy Brown', 'Alice Zed']);
    expect(byName).toMatchObject({ total: 3, page: 1, pageSize: 10 });

    const inactive = await listTeachers(db, actor, { organisationId: org.id, status: 'inactive' });
    expect(inactive.members.map((m) => m.email)).toEqual(['gone@school.org']);
    expect(inactive.members[0]!.revokedAt).not.toBeNull();
  });

  it('pages by number from either end with the same rows as the whole list, in every order', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    for (let i = 0; i < 25; i += 1) {
      const n = String(i).padStart(2, '0');
      // Names in another order than the e-mails, and two alike, so the e-mail breaks the tie.
      await buildTeacher(db, { organisationId: org.id, email: `t${n}@school.org`, display_name: `Name ${String((i * 7) % 12).padStart(2, '0')}` });
    }
    for (const [sort, dir] of [['email', 'asc'], ['email', 'desc'], ['name', 'asc'], ['name', 'desc']] as const) {
      const whole = (await listTeachers(db, actor, { organisationId: org.id, status: 'active', sort, dir })).members.map((m) => m.email);
      expect(whole).toHaveLength(25);
      // Pages 1-4 are read from the start, 5-7 from the end (the last one partial), 8 is past the end.
      for (let page = 1; page <= 8; page += 1) {
        const answer = await listTeachers(db, actor, { organisationId: org.id, status: 'active', sort, dir, page, pageSize: 4 });
        expect(answer.members.map((m) => m.email), `${sort} ${dir} page ${page}`).toEqual(whole.slice((page - 1) * 4, page * 4));
        expect(answer.total).toBe(25);
        expect(answer.nextCursor === null, `${sort} ${dir} page ${page}: no next page`).toBe(page >= 7);
      }
    }
    const outsider = await adminOf((await buildOrganisation(db)).id);
    await expect(listTeachers(db, outsider, { organisationId: org.id, status: 'active', page: 7, pageSize: 4 })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('treats LIKE wildcards in the search as plain characters', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    await buildTeacher(db, { organisationId: org.id, email: 'a_b@school.org' });
    await buildTeacher(db, { organisationId: org.id, email: 'axb@school.org' });
    const found = await listTeachers(db, actor, { organisationId: org.id, status: 'active', search: 'a_b' });
    expect(found.members.map((m) => m.email)).toEqual(['a_b@school.org']);
  });
});

describe('importTeachers', () => {
  it('creates pending members, reports existing ones, grants licences in order and is idempotent', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    const license = await buildLicense(db, { organisationId: org.id, quantity: 2, book_quota: 1000 });
    await buildTeacher(db, { organisationId: org.id, license_id: license.id }); // one seat taken
    const existing = await buildTeacher(db, { organisationId: org.id, email: 'old@school.org' });
    const emails = [' New1@School.org', 'new2@school.org;', 'old@school.org', 'new1@school.org'].map((e) => e.replace(';', ''));
    const licenses = { 'new1@school.org': license.id, 'new2@school.org': license.id, 'old@school.org': license.id };

    const first = await importTeachers(db, actor, { organisationId: org.id, emails, licenses, providerEmailDomain: PROVIDER });
    expect(first.newMembers.map((m) => m.email)).toEqual(['new1@school.org', 'new2@school.org']);
    expect(first.existingMembers).toEqual([{ id: existing.id, email: 'old@school.org' }]);
    expect(first.licensesNotGranted).toEqual([{ email: 'new2@school.org', licenseId: license.id }]);
    const rows = await db.selectFrom('members').selectAll().where('organisation_id', '=', org.id).where('email', 'like', 'new%').orderBy('email').execute();
    expect(rows.map((r) => [r.email, r.role, r.pending, r.license_id])).toEqual([
      ['new1@school.org', -600, true, license.id],
      ['new2@school.org', -600, true, null],
    ]);

    const before = await db.selectFrom('members').selectAll().where('organisation_id', '=', org.id).orderBy('id').execute();
    const second = await importTeachers(db, actor, { organisationId: org.id, emails, licenses, providerEmailDomain: PROVIDER });
    expect(second.newMembers).toEqual([]);
    expect(second.existingMembers.map((m) => m.email)).toEqual(['new1@school.org', 'new2@school.org', 'old@school.org']);
    const after = await db.selectFrom('members').selectAll().where('organisation_id', '=', org.id).orderBy('id').execute();
    expect(after).toEqual(before);
  });

  it('refuses the whole list when one address is invalid', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    await expect(
      importTeachers(db, actor, { organisationId: org.id, emails: ['ok@school.org', 'nope'], providerEmailDomain: PROVIDER }),
    ).rejects.toMatchObject({ statusCode: 400, message: '1 invalid email address' });
    const count = await db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('organisation_id', '=', org.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('imports 5,000 e-mails in one go', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    const emails = Array.from({ length: 5000 }, (_, i) => `bulk${i}@school.org`);
    const result = await importTeachers(db, actor, { organisationId: org.id, emails, providerEmailDomain: PROVIDER });
    expect(result.newMembers).toHaveLength(5000);
    expect(result.newMembers[4999]!.email).toBe('bulk4999@school.org');
  });
});

describe('membership changes', () => {
  it('revokes pending teachers with their licence, marks them active again, and refuses signed-up ones to non-staff', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    const license = await buildLicense(db, { organisationId: org.id });
    const pending = await buildTeacher(db, { organisationId: org.id, pending: true, role: -600, license_id: license.id });
    const signedUp = await buildTeacher(db, { organisationId: org.id });
    const input = { organisationId: org.id, providerEmailDomain: PROVIDER };

    await expect(revokeMembership(db, actor, { ...input, memberIds: [signedUp.id] })).rejects.toMatchObject({ statusCode: 403 });
    expect(await revokeMembership(db, actor, { ...input, memberIds: [pending.id] })).toEqual({ memberIds: [pending.id] });
    const revoked = await db.selectFrom('members').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
    expect(revoked.revoked_at).not.toBeNull();
    expect(revoked.license_id).toBeNull();
    const audit = await db.selectFrom('audit_events').selectAll().where('organisation_id', '=', org.id).where('action', '=', 'members.revoke').execute();
    expect(audit[0]!.target_ids).toEqual([pending.id]);

    const staff = await adminOf(org.id, `helper@${PROVIDER}`);
    expect(await revokeMembership(db, staff, { ...input, memberIds: [signedUp.id] })).toEqual({ memberIds: [signedUp.id] });

    expect(await grantMembership(db, actor, { organisationId: org.id, memberIds: [pending.id] })).toEqual({ memberIds: [pending.id] });
    const active = await listTeachers(db, actor, { organisationId: org.id, status: 'active' });
    expect(active.members.map((m) => m.id)).toEqual([pending.id]);
  });

  it('deletes pending memberships but refuses everything in a domain organisation to non-staff', async () => {
    const org = await buildOrganisation(db, { is_domain: true });
    const actor = await adminOf(org.id);
    const pending = await buildTeacher(db, { organisationId: org.id, pending: true, role: -600 });
    await expect(
      deleteMemberships(db, actor, { organisationId: org.id, memberIds: [pending.id], providerEmailDomain: PROVIDER }),
    ).rejects.toMatchObject({ statusCode: 403 });
    const staff = await adminOf(org.id, `ops@${PROVIDER}`);
    expect(await deleteMemberships(db, staff, { organisationId: org.id, memberIds: [pending.id], providerEmailDomain: PROVIDER })).toEqual({ memberIds: [pending.id] });
  });

  it('toggles 400 <-> 600 only with orgLibraries, and not for pending teachers', async () => {
    const org = await buildOrganisation(db, { org_libraries: true });
    const actor = await adminOf(org.id);
    const teacher = await buildTeacher(db, { organisationId: org.id });
    const pending = await buildTeacher(db, { organisationId: org.id, pending: true, role: -600 });
    expect(await updateMembershipRole(db, actor, { organisationId: org.id, userId: teacher.id, role: 400 })).toEqual({ memberId: teacher.id, role: 400 });
    await expect(updateMembershipRole(db, actor, { organisationId: org.id, userId: teacher.id, role: 500 })).rejects.toMatchObject({ statusCode: 400 });
    await expect(updateMembershipRole(db, actor, { organisationId: org.id, userId: pending.id, role: 400 })).rejects.toMatchObject({ statusCode: 409 });
    const plain = await buildOrganisation(db);
    const plainActor = await adminOf(plain.id);
    const t2 = await buildTeacher(db, { organisationId: plain.id });
    await expect(updateMembershipRole(db, plainActor, { organisationId: plain.id, userId: t2.id, role: 400 })).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('convertToStudent', () => {
  it('makes the teacher a student, frees the licence, renames the private library; a second call says already converted', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    const license = await buildLicense(db, { organisationId: org.id });
    const teacher = await buildTeacher(db, { organisationId: org.id, license_id: license.id });
    await db.insertInto('libraries').values({ id: `lib-${teacher.id}`, organisation_id: org.id, owner_member_id: teacher.id, name: 'Private', is_private: true }).execute();

    const result = await convertToStudent(db, actor, { userId: teacher.id, myBooksLibraryName: ' Old books ' });
    expect(result).toMatchObject({ memberId: teacher.id, isStudent: true, myBooksLibrary: { id: `lib-${teacher.id}`, name: 'Old books', created: false } });
    const row = await db.selectFrom('members').selectAll().where('id', '=', teacher.id).executeTakeFirstOrThrow();
    expect([row.is_student, row.license_id]).toEqual([true, null]);
    const list = await listTeachers(db, actor, { organisationId: org.id, status: 'active' });
    expect(list.members.map((m) => m.id)).not.toContain(teacher.id);
    await expect(convertToStudent(db, actor, { userId: teacher.id })).rejects.toMatchObject({ statusCode: 409, message: 'This teacher has already been converted' });
  });

  it('creates the My books library when there is none, and refuses admins of other organisations', async () => {
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    const teacher = await buildTeacher(db, { organisationId: org.id });
    const outsider = await adminOf((await buildOrganisation(db)).id);
    await expect(convertToStudent(db, outsider, { userId: teacher.id })).rejects.toMatchObject({ statusCode: 404 });
    const result = await convertToStudent(db, actor, { userId: teacher.id });
    expect(result.myBooksLibrary).toMatchObject({ name: 'My books', created: true });
  });
});
