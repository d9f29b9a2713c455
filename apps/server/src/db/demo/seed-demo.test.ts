import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBRARY_ROLE_OWNER, ROLE_LIBRARY_MANAGER, ROLE_PENDING_TEACHER } from '@quire/core';
import { openTestDatabase, testEnv } from '../../../test/helper.js';
import type { Database } from '../client.js';
import type { Env } from '../../env.js';
import { verifyPassword } from '../../modules/identity/password.js';
import { DEMO_STANDALONE_SCHOOL, DEMO_TEACHER_ACCOUNTS } from './demo-district.js';
import { seedDemoIfEmpty } from './seed-demo.js';

let database: Database;
let env: Env;
let first: Awaited<ReturnType<typeof seedDemoIfEmpty>>;
const lines: string[] = [];
let skipped: boolean[];
let organisationsWhenSkipped: number;

const count = async (query: RawBuilder<unknown>) => {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (${query}) AS q`.execute(database.db);
  return rows[0]?.n ?? 0;
};

beforeAll(async () => {
  env = testEnv({ DEMO_SEED: true, DEMO_TEACHERS: 200, DEMO_ADMIN_EMAIL: 'Head@Demo.Quire.School', DEMO_ADMIN_PASSWORD: 'let-me-in-42', PROVIDER_EMAIL_DOMAIN: 'Bookmakers.Example' });
  ({ database } = await openTestDatabase(env));
  // The switches are tried on the still-empty database first (one database per file).
  skipped = [
    (await seedDemoIfEmpty(database, { ...env, DEMO_SEED: false }, () => undefined)).seeded,
    (await seedDemoIfEmpty(database, { ...env, NODE_ENV: 'production' }, () => undefined)).seeded,
  ];
  organisationsWhenSkipped = await count(sql`SELECT id FROM organisations`);
  first = await seedDemoIfEmpty(database, env, (line) => lines.push(line));
});

afterAll(() => database.close());

describe('seedDemoIfEmpty', () => {
  it('seeds an empty database once and leaves a seeded one alone', async () => {
    expect(first).toEqual({ seeded: true, adminEmail: 'head@demo.quire.school', adminPassword: 'let-me-in-42', staffEmail: 'support@bookmakers.example' });
    expect(lines.some((l) => l.includes('Maple Grove High School'))).toBe(true);
    const organisations = await count(sql`SELECT id FROM organisations`);
    const again = await seedDemoIfEmpty(database, env, () => undefined);
    expect(again.seeded).toBe(false);
    expect(await count(sql`SELECT id FROM organisations`)).toBe(organisations);
  });

  it('does not seed when DEMO_SEED is off or in production', () => {
    expect(skipped).toEqual([false, false]);
    expect(organisationsWhenSkipped).toBe(0);
  });

  it('gives the demo admin a verified identity whose password verifies, admin of at least two organisations and a teacher of the main one', async () => {
    const user = await database.db.selectFrom('user').selectAll().where('email', '=', 'head@demo.quire.school').executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(true);
    expect(user.name).toBe('Demo Admin');
    const account = await database.db.selectFrom('account').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ providerId: 'credential', accountId: user.id });
    expect(await verifyPassword(account.password ?? '', 'let-me-in-42')).toBe(true);
    expect(await verifyPassword(account.password ?? '', 'wrong-password')).toBe(false);

    const adminOf = await database.db.selectFrom('admins').select(['organisation_id', 'user_id']).where('email', '=', user.email).execute();
    expect(adminOf.length).toBeGreaterThanOrEqual(2);
    expect(adminOf.every((a) => a.user_id === user.id)).toBe(true);
    const member = await database.db
      .selectFrom('members').innerJoin('organisations', 'organisations.id', 'members.organisation_id')
      .select(['organisations.name', 'members.user_id', 'members.pending'])
      .where('members.email', '=', user.email).executeTakeFirstOrThrow();
    expect(member).toEqual({ name: 'Maple Grove High School', user_id: user.id, pending: false });
  });

  it('makes Riverside a district over Oakwood and Willow Creek, with Maple Grove, Cedar Hill and Hazel Brook standing alone', async () => {
    const { rows } = await sql<{ name: string; parent: string | null }>`
      SELECT o.name, p.name AS parent FROM organisations o LEFT JOIN organisations p ON p.id = o.parent_id ORDER BY o.name`.execute(database.db);
    expect(rows).toEqual([
      { name: 'Cedar Hill Middle School', parent: null },
      { name: 'Hazel Brook Primary School', parent: null },
      { name: 'Maple Grove High School', parent: null },
      { name: 'Oakwood Elementary School', parent: 'Riverside Unified School District' },
      { name: 'Riverside Unified School District', parent: null },
      { name: 'Willow Creek Primary School', parent: 'Riverside Unified School District' },
    ]);
  });

  it('gives Riverside a licence allocated to Oakwood and Willow Creek, each with teachers on it and seats to spare', async () => {
    const { rows } = await sql<{ school: string; seats: number; holders: number; district: string; quantity: number }>`
      SELECT o.name AS school, s.quantity AS seats, d.quantity,
        (SELECT count(*)::int FROM members m WHERE m.organisation_id = s.organisation_id AND m.license_id = s.id AND m.revoked_at IS NULL) AS holders,
        p.name AS district
      FROM licenses s JOIN organisations o ON o.id = s.organisation_id
      JOIN licenses d ON d.organisation_id = s.allocated_from_organisation_id AND d.id = s.allocated_from_license_id
      JOIN organisations p ON p.id = d.organisation_id
      WHERE s.name = 'District Standard' ORDER BY o.name`.execute(database.db);
    expect(rows.map((r) => [r.school, r.district])).toEqual([
      ['Oakwood Elementary School', 'Riverside Unified School District'],
      ['Willow Creek Primary School', 'Riverside Unified School District'],
    ]);
    for (const row of rows) {
      expect(row.holders, row.school).toBeGreaterThan(0);
      expect(row.seats - row.holders, row.school).toBe(2);
    }
    expect(rows[0]!.quantity).toBe(rows[0]!.seats + rows[1]!.seats + 10);
  });

  it('gives the demo teachers a password account and no admin rights', async () => {
    for (const teacher of DEMO_TEACHER_ACCOUNTS) {
      const row = await database.db
        .selectFrom('user').innerJoin('account', 'account.userId', 'user.id').innerJoin('members', 'members.user_id', 'user.id')
        .select(['account.password', 'members.role']).where('user.email', '=', teacher.email).executeTakeFirstOrThrow();
      expect(await verifyPassword(row.password ?? '', 'let-me-in-42')).toBe(true);
      expect(row.role).toBe(teacher.role);
      expect(await count(sql`SELECT 1 FROM admins WHERE email = ${teacher.email}`)).toBe(0);
    }
  });

  it('gives a provider-staff account of PROVIDER_EMAIL_DOMAIN, with the demo password, admin rights in every demo school but the stand-alone one and no teacher membership', async () => {
    const user = await database.db.selectFrom('user').selectAll().where('email', '=', 'support@bookmakers.example').executeTakeFirstOrThrow();
    expect(user.emailVerified).toBe(true);
    const account = await database.db.selectFrom('account').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword(account.password ?? '', 'let-me-in-42')).toBe(true);
    const organisations = await count(sql`SELECT id FROM organisations WHERE name <> ${DEMO_STANDALONE_SCHOOL.name}`);
    expect(await count(sql`SELECT 1 FROM admins WHERE email = ${user.email} AND user_id = ${user.id}`)).toBe(organisations);
    expect(await count(sql`SELECT 1 FROM members WHERE email = ${user.email}`)).toBe(0);
  });

  it('gives the stand-alone school one admin of its own, with the demo password, who administers nothing else, and no other admin', async () => {
    const school = await database.db.selectFrom('organisations').select(['id', 'parent_id']).where('name', '=', DEMO_STANDALONE_SCHOOL.name).executeTakeFirstOrThrow();
    expect(school.parent_id).toBeNull();
    const admins = await database.db.selectFrom('admins').select(['email', 'user_id']).where('organisation_id', '=', school.id).execute();
    expect(admins.map((a) => a.email)).toEqual([DEMO_STANDALONE_SCHOOL.admin.email]);
    const user = await database.db.selectFrom('user').selectAll().where('email', '=', DEMO_STANDALONE_SCHOOL.admin.email).executeTakeFirstOrThrow();
    expect(admins[0]!.user_id).toBe(user.id);
    expect(user).toMatchObject({ emailVerified: true, name: DEMO_STANDALONE_SCHOOL.admin.name });
    const account = await database.db.selectFrom('account').selectAll().where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(await verifyPassword(account.password ?? '', 'let-me-in-42')).toBe(true);
    expect(await count(sql`SELECT 1 FROM admins WHERE email = ${user.email}`)).toBe(1);
    expect(await count(sql`SELECT 1 FROM members WHERE organisation_id = ${school.id} AND NOT pending`)).toBeGreaterThan(0);
  });

  it('sizes the main organisation from DEMO_TEACHERS', async () => {
    // 200 generated teachers plus the demo admin and the two demo teachers.
    expect(await count(sql`SELECT m.id FROM members m JOIN organisations o ON o.id = m.organisation_id WHERE o.name = 'Maple Grove High School'`)).toBe(203);
  });
});

describe('the demo district covers every case of the spec', () => {
  it.each<[string, RawBuilder<unknown>, number?]>([
    ['a licence with bookQuota 1000', sql`SELECT 1 FROM licenses WHERE book_quota = 1000`],
    ['a licence with UNLIMITED libraries', sql`SELECT 1 FROM licenses WHERE library_quota IS NULL`],
    ['a licence with a library quota', sql`SELECT 1 FROM licenses WHERE library_quota IS NOT NULL`],
    ['an apply-to-all licence in a domain organisation', sql`SELECT 1 FROM licenses l JOIN organisations o ON o.id = l.organisation_id WHERE l.apply_to_all AND o.is_domain`],
    ['a full licence', sql`SELECT 1 FROM licenses l WHERE quantity > 0 AND quantity = (SELECT count(*) FROM members m WHERE m.license_id = l.id AND m.revoked_at IS NULL)`],
    ['a nearly full licence', sql`SELECT 1 FROM licenses l WHERE quantity - (SELECT count(*) FROM members m WHERE m.license_id = l.id AND m.revoked_at IS NULL) BETWEEN 1 AND 3`],
    ['active teachers', sql`SELECT 1 FROM members WHERE NOT pending AND revoked_at IS NULL AND role = 600 AND user_id IS NOT NULL`],
    ['pending teachers without a user', sql`SELECT 1 FROM members WHERE pending AND role = ${ROLE_PENDING_TEACHER} AND user_id IS NULL`],
    ['inactive teachers', sql`SELECT 1 FROM members WHERE revoked_at IS NOT NULL`],
    ['library managers in an organisation with orgLibraries', sql`SELECT 1 FROM members m JOIN organisations o ON o.id = m.organisation_id WHERE m.role = ${ROLE_LIBRARY_MANAGER} AND o.org_libraries`],
    ['ambassadors', sql`SELECT 1 FROM members WHERE is_ambassador`],
    ['teachers certified at level 1 only', sql`SELECT 1 FROM members WHERE calevel1_at IS NOT NULL AND calevel2_at IS NULL`],
    ['teachers certified at level 2', sql`SELECT 1 FROM members WHERE calevel2_at IS NOT NULL`],
    ['teachers certifying', sql`SELECT 1 FROM members WHERE certifying > 0 AND certifying < 1`],
    ['students', sql`SELECT 1 FROM members WHERE is_student`],
    ['private My Books libraries', sql`SELECT 1 FROM libraries WHERE is_private AND name = 'My Books'`],
    ['archived libraries', sql`SELECT 1 FROM libraries WHERE archived_at IS NOT NULL`],
    ['owners in their libraries', sql`SELECT 1 FROM library_memberships lm JOIN libraries l ON l.id = lm.library_id WHERE lm.member_id = l.owner_member_id AND lm.role = ${LIBRARY_ROLE_OWNER}`],
    ['joined libraries', sql`SELECT 1 FROM library_memberships lm JOIN libraries l ON l.id = lm.library_id WHERE lm.member_id <> l.owner_member_id`],
    ['published books', sql`SELECT 1 FROM books WHERE published`],
    ['books of every shape', sql`SELECT DISTINCT shape FROM books`, 3],
    ['admins', sql`SELECT 1 FROM admins`],
    ['LTI credentials', sql`SELECT 1 FROM lti_credentials`],
    ['the pixabay image search setting', sql`SELECT 1 FROM organisations WHERE settings->>'imageSearch' = 'pixabay'`],
    ['apps for teachers only and apps disabled', sql`SELECT DISTINCT v.value FROM organisations, jsonb_each_text(settings->'apps') AS v`, 2],
    ['org libraries with visits', sql`SELECT 1 FROM organisations WHERE org_libraries AND visit_libraries`],
    ['a domain organisation', sql`SELECT 1 FROM organisations WHERE is_domain`],
    ['students with published portfolio books', sql`SELECT 1 FROM portfolio_items p JOIN organisations o ON o.id = p.organisation_id WHERE o.student_portfolios`],
    ['students with nothing published yet', sql`SELECT 1 FROM students s WHERE NOT EXISTS (SELECT 1 FROM portfolio_items p WHERE p.student_id = s.id)`],
    ['session events of students and teachers', sql`SELECT DISTINCT user_kind FROM analytics_events`, 2],
    ['sessions on five operating systems', sql`SELECT DISTINCT os FROM analytics_events`, 5],
    ['sessions through four providers', sql`SELECT DISTINCT provider FROM analytics_events`, 4],
    ['every daily metric', sql`SELECT DISTINCT metric FROM analytics_daily`, 5],
    ['an organisation without session events (the empty analytics state)', sql`SELECT 1 FROM organisations o WHERE NOT EXISTS (SELECT 1 FROM analytics_events e WHERE e.organisation_id = o.id)`],
    ['students seen, rolled up by first day', sql`SELECT 1 FROM analytics_daily WHERE metric = 'users-first-seen' AND students > 0`],
  ])('%s', async (_, query, atLeast = 1) => {
    expect(await count(query)).toBeGreaterThanOrEqual(atLeast);
  });

  it('keeps LTI credentials and student portfolios to one organisation each', async () => {
    expect(await count(sql`SELECT DISTINCT organisation_id FROM lti_credentials`)).toBe(1);
    expect(await count(sql`SELECT DISTINCT organisation_id FROM students`)).toBe(1);
  });

  it('has 18 months of analytics whose daily rollups match the raw events', async () => {
    const { rows } = await sql<{ days: number; events: number; rolled: number; duration: number; rolledDuration: number }>`
      SELECT (SELECT max(occurred_at)::date - min(occurred_at)::date FROM analytics_events) AS days,
             (SELECT count(*)::int FROM analytics_events) AS events,
             (SELECT sum(total)::int FROM analytics_daily WHERE metric = 'sessions') AS rolled,
             (SELECT sum(duration_seconds)::int FROM analytics_events) AS duration,
             (SELECT sum(total)::int FROM analytics_daily WHERE metric = 'sessions-duration') AS "rolledDuration"`.execute(database.db);
    const r = rows[0];
    expect(r?.days).toBeGreaterThanOrEqual(540);
    expect(r?.rolled).toBe(r?.events);
    expect(r?.rolledDuration).toBe(r?.duration);
    expect(await count(sql`SELECT 1 FROM analytics_daily WHERE metric IN ('sessions', 'sessions-duration') AND name <> ''`)).toBe(0);
    // Books created are not split by students and teachers (docs/analytics.md).
    expect(await count(sql`SELECT 1 FROM analytics_daily WHERE metric <> 'books-created' AND students + teachers <> total`)).toBe(0);
    expect(await count(sql`SELECT 1 FROM analytics_daily WHERE metric = 'sessions-by-os' AND name = 'ChromeOS'`)).toBeGreaterThan(0);
    // The tiles' rollups agree with the tables they count.
    const { rows: tiles } = await sql<{ books: number; rolledBooks: number; users: number; rolledUsers: number }>`
      SELECT (SELECT count(*)::int FROM books) AS books,
             (SELECT sum(total)::int FROM analytics_daily WHERE metric = 'books-created') AS "rolledBooks",
             (SELECT count(*)::int FROM (SELECT DISTINCT organisation_id, user_kind, user_id FROM analytics_events WHERE user_id IS NOT NULL) u) AS users,
             (SELECT sum(total)::int FROM analytics_daily WHERE metric = 'users-first-seen') AS "rolledUsers"`.execute(database.db);
    expect(tiles[0]?.rolledBooks).toBe(tiles[0]?.books);
    expect(tiles[0]?.rolledUsers).toBe(tiles[0]?.users);
  });

  it('gives every licence at least as many seats as it has active holders', async () => {
    expect(await count(sql`SELECT 1 FROM licenses l WHERE quantity < (SELECT count(*) FROM members m WHERE m.license_id = l.id AND m.revoked_at IS NULL)`)).toBe(0);
  });

  it('gives every member of the domain organisation its apply-to-all licence', async () => {
    expect(await count(sql`SELECT 1 FROM members m JOIN organisations o ON o.id = m.organisation_id WHERE o.is_domain AND m.revoked_at IS NULL AND NOT m.is_student AND m.license_id IS NULL`)).toBe(0);
  });

  it('uses teachers e-mails at the organisation domain and a user row for every signed-up teacher', async () => {
    expect(await count(sql`SELECT 1 FROM members WHERE email LIKE '%@maplegrove.example.org'`)).toBeGreaterThan(150);
    expect(await count(sql`SELECT 1 FROM members m LEFT JOIN "user" u ON u.id = m.user_id WHERE NOT m.pending AND u.id IS NULL`)).toBe(0);
  });
});
