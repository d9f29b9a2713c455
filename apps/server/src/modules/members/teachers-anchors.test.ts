import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { PageSize, TeacherSortKey, TeacherStatus } from '@quire/core';
import type { DB } from '../../db/types.js';
import { buildAdmin, buildLicense, buildOrganisation } from '../../../test/factories.js';
import { useTestDatabase } from '../../../test/helper.js';
import type { Actor } from '../access/actor.js';
import { Random } from '../../db/demo/random.js';
import { listTeachers } from './members.service.js';
import { ANCHOR_STEP, anchorsSettled, keptAnchors } from './teachers-anchors.js';
import { filterOf, orderedRows, selectTeacherColumns, type TeacherFilter, type TeacherSort } from './teachers-list.repository.js';

// A page by number starts from the anchor before it (teachers-anchors.ts): it must hold exactly the rows OFFSET gives,
// in every order, with ties in every sort key, and stop using anchors the moment the list changes.

let db: Kysely<DB>;
useTestDatabase((database) => {
  db = database.db;
});

/** The demo's seeded sequence (mulberry32), so a failure can be replayed. */
const random = (seed: number) => {
  const source = new Random(seed);
  return () => source.next();
};

const NAMES = ['Ann Lee', 'ann lee', 'Ben Kim', 'Cara Diaz', '', 'Zoë Ng'];

/** `count` teachers with few distinct names, licences, sign-up states and removal dates: ties in every sort key. */
async function seedTeachers(organisationId: string, count: number, rnd: () => number, emails?: string[]) {
  const licenses = [
    await buildLicense(db, { organisationId, quantity: 10_000, book_quota: 40, library_quota: 5 }),
    await buildLicense(db, { organisationId, quantity: 10_000, book_quota: 200, library_quota: null }),
    // The same total books as the first (40 × 5): a tie between two licences.
    await buildLicense(db, { organisationId, quantity: 10_000, book_quota: 200, library_quota: 1 }),
  ];
  const removed = new Date('2024-03-05T00:00:00Z');
  const rows = Array.from({ length: count }, (_, i) => {
    const pick = rnd();
    return {
      id: randomUUID(),
      organisation_id: organisationId,
      email: emails?.[i] ?? `t${String(Math.floor(rnd() * 1e9)).padStart(9, '0')}-${i}@school.example.org`,
      display_name: NAMES[Math.floor(rnd() * NAMES.length)]!,
      role: pick < 0.2 ? -600 : 600,
      pending: pick < 0.2,
      license_id: pick < 0.3 ? null : licenses[Math.floor(rnd() * licenses.length)]!.id,
      revoked_at: rnd() < 0.1 ? removed : null,
    };
  });
  await db.insertInto('members').values(rows).execute();
  return { licenses, rows };
}

/** The rows OFFSET gives: the list's order, LIMIT and OFFSET, nothing else. */
async function byOffset(filter: TeacherFilter, sort: TeacherSort, page: number, pageSize: number): Promise<string[]> {
  const { shape, values } = filterOf(filter);
  const rows = await selectTeacherColumns(orderedRows(db, shape, values, sort, null), sort, shape.district)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return rows.map((r) => r.id);
}

async function adminOf(organisationId: string): Promise<Actor> {
  const admin = await buildAdmin(db, { organisationId });
  return { userId: admin.user!.id, email: admin.email, displayName: 'Admin', emailVerified: true };
}

const SORTS: TeacherSortKey[] = ['email', 'name', 'signedUp', 'license', 'removed'];

async function comparePages(actor: Actor, filter: TeacherFilter, rnd: () => number, label: string, sorts = SORTS, sizes: PageSize[] = [10, 20, 100]) {
  for (const key of sorts) {
    for (const dir of ['asc', 'desc'] as const) {
      const sort = { key, dir };
      for (const pageSize of sizes) {
        const first = await listTeachers(db, actor, { ...filter, sort: key, dir, page: 1, pageSize });
        const pages = Math.max(1, Math.ceil(first.total / pageSize));
        // The page that reads the anchors, then pages that use them: the last, one past it, and random ones.
        const asked = [2, pages, pages + 1, ...Array.from({ length: 2 }, () => 1 + Math.floor(rnd() * pages))];
        for (const page of asked) {
          // The anchors are read after the first page by number is answered: the pages after it use them.
          await anchorsSettled(db);
          const got = await listTeachers(db, actor, { ...filter, sort: key, dir, page, pageSize });
          expect(got.members.map((m) => m.id), `${label} ${key} ${dir} page ${page} of ${pageSize}`).toEqual(await byOffset(filter, sort, page, pageSize));
          expect(got.total).toBe(first.total);
        }
      }
    }
  }
}

describe('numbered pages from anchors', () => {
  it('give exactly the rows of OFFSET, in every order, page size and filter, with ties in the sort keys', async () => {
    const rnd = random(20261127);
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    const { licenses } = await seedTeachers(org.id, ANCHOR_STEP * 6 + 37, rnd);
    await comparePages(actor, { organisationId: org.id, status: 'active' }, rnd, 'active');
    await comparePages(actor, { organisationId: org.id, status: 'inactive' }, rnd, 'inactive', ['removed', 'name'], [10]);
    await comparePages(actor, { organisationId: org.id, status: 'active', signedUp: 'yes', license: licenses[1]!.id }, rnd, 'filtered', ['email', 'license'], [10]);
    // The pages above came from the anchors kept for the list: spoil them (the version still current) and a page
    // shows other rows.
    await anchorsSettled(db);
    const { shape, values } = filterOf({ organisationId: org.id, status: 'active' });
    const kept = keptAnchors(db, JSON.stringify([shape, values, { key: 'email', dir: 'asc' }]));
    const total = (await listTeachers(db, actor, { organisationId: org.id, status: 'active', page: 1, pageSize: 10 })).total;
    expect(kept?.anchors).toHaveLength(Math.floor(total / ANCHOR_STEP));
    kept!.anchors[2] = kept!.anchors[0]!;
    const spoiled = await listTeachers(db, actor, { organisationId: org.id, status: 'active', sort: 'email', dir: 'asc', page: 31, pageSize: 10 });
    expect(spoiled.members.map((m) => m.id)).toEqual(await byOffset({ organisationId: org.id, status: 'active' }, { key: 'email', dir: 'asc' }, 11, 10));
  }, 180_000);

  it('stop using anchors when the list changes: an import, a rename, a removal, a licence quota', async () => {
    const rnd = random(7);
    const org = await buildOrganisation(db);
    const actor = await adminOf(org.id);
    const { rows, licenses } = await seedTeachers(org.id, ANCHOR_STEP * 5, rnd);
    const filter: TeacherFilter = { organisationId: org.id, status: 'active' };
    const check = async (label: string) => {
      for (const sort of [{ key: 'email', dir: 'asc' }, { key: 'name', dir: 'desc' }, { key: 'license', dir: 'asc' }] as TeacherSort[]) {
        for (const page of [2, 17, 31, 44]) {
          await anchorsSettled(db);
          const got = await listTeachers(db, actor, { ...filter, sort: sort.key, dir: sort.dir, page, pageSize: 10 });
          expect(got.members.map((m) => m.id), `${label}: ${sort.key} page ${page}`).toEqual(await byOffset(filter, sort, page, 10));
        }
      }
    };
    await check('before');
    // Rows that sort first: every later page moves by one.
    await db.insertInto('members').values({ id: randomUUID(), organisation_id: org.id, email: '0000@school.example.org', display_name: 'zzz', role: 600, pending: false }).execute();
    await check('after an import');
    await db.updateTable('members').set({ display_name: 'ZZZZ' }).where('id', '=', rows[3]!.id).execute();
    await check('after a rename');
    await db.updateTable('members').set({ revoked_at: new Date() }).where('id', 'in', rows.slice(10, 40).map((r) => r.id)).execute();
    await check('after a removal');
    await db.updateTable('licenses').set({ book_quota: 1 }).where('id', '=', licenses[0]!.id).execute();
    await check('after a quota change');
  });

  it('count a version per organisation, moved by every write to its members and only to its own', async () => {
    const a = await buildOrganisation(db);
    const b = await buildOrganisation(db);
    const version = async (id: string) =>
      Number((await db.selectFrom('member_list_versions').select('version').where('organisation_id', '=', id).executeTakeFirst())?.version ?? 0);
    await seedTeachers(a.id, 3, random(1));
    const before = [await version(a.id), await version(b.id)];
    await sql`UPDATE members SET certifying = 0.5 WHERE organisation_id = ${a.id}`.execute(db);
    expect([await version(a.id), await version(b.id)]).toEqual([before[0]! + 1, before[1]]);
  });

  it('page a district by cursor, both ways, exactly as OFFSET: every order read school by school, with filters and ties', async () => {
    const rnd = random(20261128);
    const root = await buildOrganisation(db, { name: 'Cursor District' });
    const schools = [];
    // 'west' and 'West': a tie in the School order, which the e-mail and the member id break across both schools.
    for (const name of ['East', 'West', 'Tiny', 'Empty', 'west']) schools.push(await buildOrganisation(db, { name, parent_id: root.id }));
    // The same e-mails in three organisations (ties the member id breaks), names that differ only in case (ties in
    // lower(name)), a school of three teachers and one of none.
    const shared = Array.from({ length: 90 }, (_, i) => `same-${String(i).padStart(3, '0')}@school.example.org`);
    await seedTeachers(root.id, 40, rnd, shared);
    const { licenses } = await seedTeachers(schools[0]!.id, 120, rnd, shared);
    await seedTeachers(schools[1]!.id, 95, rnd, shared);
    await seedTeachers(schools[2]!.id, 3, rnd);
    await seedTeachers(schools[4]!.id, 60, rnd, shared);
    const actor = await adminOf(root.id);
    const district: TeacherFilter = { organisationId: root.id, status: 'active', view: 'district' };
    const filters: Array<[string, TeacherFilter]> = [
      ['all', district],
      ['inactive', { ...district, status: 'inactive' }],
      ['not signed up', { ...district, signedUp: 'no' }],
      ['no license', { ...district, license: 'none' }],
      ["a school's license", { ...district, license: licenses[0]!.id }],
      ['one school', { ...district, school: schools[1]!.id }],
      ['a broad search', { ...district, search: 'ann' }],
    ];
    // Every order the console offers on the tab, both ways (on the filters most likely to differ, to keep it short).
    const offered = (filter: TeacherFilter): TeacherSortKey[] =>
      filter.status === 'inactive' ? ['email', 'name', 'removed', 'school'] : filter.search || filter.school ? ['email', 'name'] : ['email', 'name', 'signedUp', 'license', 'school'];
    for (const [label, filter] of filters) {
      for (const sort of offered(filter).flatMap((key) => (['asc', 'desc'] as const).map((dir) => ({ key, dir })))) {
        const name = `${label}, ${sort.key} ${sort.dir}`;
        const ask = (extra: { page?: number; after?: string; before?: string }) => listTeachers(db, actor, { ...filter, sort: sort.key, dir: sort.dir, pageSize: 20, ...extra });
        // Next from the first page to the last, each page the rows OFFSET gives; then Previous back to the first.
        let answer = await ask({ page: 1 });
        const pages = Math.max(1, Math.ceil(answer.total / 20));
        for (let page = 1; ; page++) {
          expect(answer.members.map((m) => m.id), `${name}: page ${page} by Next`).toEqual(await byOffset(filter, sort, page, 20));
          if (!answer.nextCursor || page === pages) break;
          answer = await ask({ after: answer.nextCursor });
        }
        for (let page = pages - 1; page >= 1; page--) {
          answer = await ask({ before: answer.previousCursor! });
          expect(answer.members.map((m) => m.id), `${name}: page ${page} by Previous`).toEqual(await byOffset(filter, sort, page, 20));
        }
        // And by number, from the anchors (read once the first page by number past the first is answered).
        for (const page of [2, pages, 2, Math.ceil(pages / 2)]) {
          await anchorsSettled(db);
          expect((await ask({ page })).members.map((m) => m.id), `${name}: page ${page} by number`).toEqual(await byOffset(filter, sort, page, 20));
        }
      }
    }
  }, 600_000);

  it("reads a district's page school by school: about a page of each school, not every teacher of the district", async () => {
    const rnd = random(5);
    const root = await buildOrganisation(db, { name: 'Counted District' });
    const schools: string[] = [];
    for (let i = 0; i < 5; i++) {
      schools.push((await buildOrganisation(db, { name: `School ${i}`, parent_id: root.id })).id);
      await seedTeachers(schools[i]!, 300, rnd);
    }
    // About two in five removed, on a few days (ties in the Removed order): an Inactive tab of some 600, so reading all
    // of it is what PostgreSQL would not choose for a page.
    await sql`UPDATE members SET revoked_at = timestamptz '2024-01-01' + (length(display_name) || ' days')::interval
      WHERE organisation_id IN (${sql.join(schools)}) AND email < 't4'`.execute(db);
    // As autovacuum would after such a change: the planner's row counts are those of the tables now.
    await sql`ANALYZE members`.execute(db);
    const actor = await adminOf(root.id);
    // Rows of members this transaction has read so far (sequential scans and index fetches alike).
    const readSoFar = async (trx: Kysely<DB>) => {
      const { rows } = await sql<{ n: number }>`
        SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS n FROM pg_stat_xact_user_tables WHERE relname = 'members'`.execute(trx);
      return Number(rows[0]?.n ?? 0);
    };
    // Every order the console offers on each tab. The License order reads each school's licences apart (three and
    // 'No license': four groups a school).
    const orders: Array<[TeacherStatus, TeacherSort, number]> = [
      ['active', { key: 'email', dir: 'asc' }, 5],
      ['active', { key: 'name', dir: 'desc' }, 5],
      ['active', { key: 'signedUp', dir: 'asc' }, 5],
      ['active', { key: 'signedUp', dir: 'desc' }, 5],
      ['active', { key: 'license', dir: 'desc' }, 20],
      ['active', { key: 'license', dir: 'asc' }, 20],
      ['active', { key: 'school', dir: 'asc' }, 5],
      ['inactive', { key: 'email', dir: 'desc' }, 5],
      ['inactive', { key: 'name', dir: 'asc' }, 5],
      ['inactive', { key: 'removed', dir: 'desc' }, 5],
      ['inactive', { key: 'removed', dir: 'asc' }, 5],
      ['inactive', { key: 'school', dir: 'desc' }, 5],
    ];
    for (const [status, sort, groups] of orders) {
      await db.transaction().execute(async (trx) => {
        const input = { organisationId: root.id, status, view: 'district' as const, sort: sort.key, dir: sort.dir, pageSize: 10 as const };
        const before = await readSoFar(trx);
        const first = await listTeachers(trx, actor, { ...input, page: 1 });
        const afterFirst = await readSoFar(trx);
        await listTeachers(trx, actor, { ...input, after: first.nextCursor! });
        const afterNext = await readSoFar(trx);
        const label = `${status} ${sort.key} ${sort.dir}`;
        expect(first.total, label).toBeGreaterThan(groups * 11 * 2);
        // Each school's (or licence's) 10 + 1 rows, and the page's rows read again for their columns; not the
        // district's 800 active or 700 removed teachers.
        expect(afterFirst - before, `${label}: first page`).toBeLessThanOrEqual(groups * 11 * 2);
        expect(afterNext - afterFirst, `${label}: next page`).toBeLessThanOrEqual(groups * 11 * 2);
      });
    }
  });

  it('page a district (its teachers and its schools’, the same e-mail in two schools) exactly as OFFSET', async () => {
    const rnd = random(42);
    const root = await buildOrganisation(db, { name: 'Anchor District' });
    const north = await buildOrganisation(db, { name: 'North', parent_id: root.id });
    const south = await buildOrganisation(db, { name: 'South', parent_id: root.id });
    const shared = Array.from({ length: 150 }, (_, i) => `shared-${String(i).padStart(3, '0')}@school.example.org`);
    await seedTeachers(root.id, 60, rnd);
    await seedTeachers(north.id, 180, rnd, shared);
    await seedTeachers(south.id, 220, rnd, shared);
    const actor = await adminOf(root.id);
    const filter: TeacherFilter = { organisationId: root.id, status: 'active', view: 'district' };
    for (const sort of [{ key: 'email', dir: 'asc' }, { key: 'name', dir: 'desc' }, { key: 'signedUp', dir: 'asc' }] as TeacherSort[]) {
      for (const page of [2, 9, 23, 38, 2]) {
        await anchorsSettled(db);
        const got = await listTeachers(db, actor, { ...filter, sort: sort.key, dir: sort.dir, page, pageSize: 10 });
        expect(got.members.map((m) => m.id), `${sort.key} page ${page}`).toEqual(await byOffset(filter, sort, page, 10));
        expect(got.members.every((m) => m.organisation && [root.id, north.id, south.id].includes(m.organisation.id))).toBe(true);
      }
    }
    // By School: the same rows as a plain ORDER BY of the school's name, the e-mail and the member id, written here
    // on its own; and again after a school is renamed past the others (its anchors no longer hold).
    const plain = async (dir: 'asc' | 'desc', page: number) => {
      const d = sql.raw(dir);
      const { rows } = await sql<{ id: string }>`
        SELECT m.id FROM members m JOIN organisations o ON o.id = m.organisation_id
        WHERE m.organisation_id IN (${root.id}, ${north.id}, ${south.id}) AND NOT m.is_student AND NOT m.is_provider_staff AND m.revoked_at IS NULL
        ORDER BY lower(o.name) ${d}, m.email ${d}, m.id ${d} LIMIT 10 OFFSET ${(page - 1) * 10}`.execute(db);
      return rows.map((r) => r.id);
    };
    const bySchool = async (label: string) => {
      for (const dir of ['asc', 'desc'] as const) {
        for (const page of [2, 9, 23, 38, 44, 2]) {
          await anchorsSettled(db);
          const got = await listTeachers(db, actor, { ...filter, sort: 'school', dir, page, pageSize: 10 });
          expect(got.members.map((m) => m.id), `${label} school ${dir} page ${page}`).toEqual(await plain(dir, page));
        }
      }
    };
    await bySchool('school');
    await db.updateTable('organisations').set({ name: 'aaa North' }).where('id', '=', north.id).execute();
    await bySchool('after a rename');
    // A school moved out of the district: its anchors no longer hold.
    await db.updateTable('organisations').set({ parent_id: null }).where('id', '=', south.id).execute();
    for (const page of [2, 9, 23]) {
      await anchorsSettled(db);
      const got = await listTeachers(db, actor, { ...filter, sort: 'email', dir: 'asc', page, pageSize: 10 });
      expect(got.members.map((m) => m.id), `moved, page ${page}`).toEqual(await byOffset(filter, { key: 'email', dir: 'asc' }, page, 10));
      expect(got.members.some((m) => m.organisation?.id === south.id)).toBe(false);
    }
  });
});
