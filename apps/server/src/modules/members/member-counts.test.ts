import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/types.js';
import { buildLicense, buildOrganisation, buildTeacher } from '../../../test/factories.js';
import { useTestDatabase } from '../../../test/helper.js';
import { countTeachers, type TeacherFilter } from './teachers-list.repository.js';

// The list's total for the tab, Signed up and License filters comes from member_counts (migration 0010, kept by
// triggers): after every kind of write it must equal counting the rows.
let db: Kysely<DB>;
useTestDatabase((database) => {
  db = database.db;
});

async function exact(filter: TeacherFilter): Promise<number> {
  const license = filter.license === 'none' ? sql`license_id IS NULL` : filter.license ? sql`license_id = ${filter.license}` : sql`true`;
  const pending = filter.signedUp ? sql`pending = ${filter.signedUp === 'no'}` : sql`true`;
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM members WHERE organisation_id = ${filter.organisationId}
    AND NOT is_student AND (revoked_at IS NOT NULL) = ${filter.status === 'inactive'} AND ${license} AND ${pending}`.execute(db);
  return rows[0]!.n;
}

async function expectCountsExact(organisationId: string, licenseIds: string[]) {
  for (const status of ['active', 'inactive'] as const) {
    for (const signedUp of [undefined, 'yes', 'no'] as const) {
      for (const license of [undefined, 'none', ...licenseIds]) {
        const filter: TeacherFilter = { organisationId, status, signedUp, license };
        expect(await countTeachers(db, filter), JSON.stringify(filter)).toBe(await exact(filter));
      }
    }
  }
}

describe('member_counts', () => {
  it('stays equal to counting the rows through inserts, moves, removals, students, sign-ups and deletes', async () => {
    const org = await buildOrganisation(db);
    const a = await buildLicense(db, { organisationId: org.id });
    const b = await buildLicense(db, { organisationId: org.id });
    const ids = [a.id, b.id];
    const teachers = [];
    for (let i = 0; i < 12; i++) {
      teachers.push(await buildTeacher(db, {
        organisationId: org.id, pending: i % 3 === 0, role: i % 3 === 0 ? -600 : 600,
        license_id: i % 4 === 0 ? a.id : i % 4 === 1 ? b.id : null, is_student: i === 11, revoked_at: i === 10 ? new Date() : null,
      }));
    }
    await expectCountsExact(org.id, ids);
    expect(await countTeachers(db, { organisationId: org.id, status: 'active' })).toBe(10);

    // One statement moving several rows between keys; one changing nothing counted; a rename.
    await db.updateTable('members').set({ license_id: b.id }).where('organisation_id', '=', org.id).where('license_id', '=', a.id).execute();
    await db.updateTable('members').set({ display_name: 'Renamed' }).where('organisation_id', '=', org.id).execute();
    await expectCountsExact(org.id, ids);
    // Remove, restore, sign up, become a student, come back as a teacher.
    await db.updateTable('members').set({ revoked_at: new Date(), license_id: null }).where('id', 'in', [teachers[1]!.id, teachers[2]!.id]).execute();
    await db.updateTable('members').set({ revoked_at: null }).where('id', '=', teachers[10]!.id).execute();
    await db.updateTable('members').set({ pending: false, role: 600 }).where('organisation_id', '=', org.id).where('pending', '=', true).execute();
    await db.updateTable('members').set({ is_student: true }).where('id', '=', teachers[5]!.id).execute();
    await db.updateTable('members').set({ is_student: false }).where('id', '=', teachers[11]!.id).execute();
    await expectCountsExact(org.id, ids);
    // A licence deleted (its members keep no licence: ON DELETE SET NULL), members deleted.
    await db.deleteFrom('licenses').where('id', '=', b.id).execute();
    await db.deleteFrom('members').where('id', 'in', [teachers[3]!.id, teachers[4]!.id]).execute();
    await expectCountsExact(org.id, ids);
    // Nothing is kept at zero, and an organisation deleted takes its counts with it.
    const zero = await db.selectFrom('member_counts').select('teachers').where('organisation_id', '=', org.id).where('teachers', '<=', 0).execute();
    expect(zero).toEqual([]);
    await db.deleteFrom('organisations').where('id', '=', org.id).execute();
    expect(await db.selectFrom('member_counts').selectAll().where('organisation_id', '=', org.id).execute()).toEqual([]);
  });

  it('counts a bulk insert of thousands in one statement, and another organisation apart', async () => {
    const org = await buildOrganisation(db);
    const other = await buildOrganisation(db);
    await buildTeacher(db, { organisationId: other.id });
    await db
      .insertInto('members')
      .values(Array.from({ length: 3000 }, (_, i) => ({ id: `${org.id}-${i}`, organisation_id: org.id, email: `bulk${i}@s.org`, pending: i % 2 === 0 })))
      .execute();
    expect(await countTeachers(db, { organisationId: org.id, status: 'active' })).toBe(3000);
    expect(await countTeachers(db, { organisationId: org.id, status: 'active', signedUp: 'no' })).toBe(1500);
    expect(await countTeachers(db, { organisationId: other.id, status: 'active' })).toBe(1);
  });
});
