import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AdminsTable, DB, LicensesTable, OrganisationsTable, UserTable } from '../src/db/types.js';

/**
 * Row factories for integration tests. Each creates the parents it needs when they are not given
 * and returns the inserted row (snake_case, as the table has it). Values are unique per call, so
 * tests sharing one database per file do not collide.
 */

let sequence = 0;
const next = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

type Organisation = Selectable<OrganisationsTable>;
type License = Selectable<LicensesTable>;
type Member = Selectable<DB['members']>;
export type UserRow = Selectable<UserTable>;
export type AdminRow = Selectable<AdminsTable>;

export async function buildOrganisation(
  db: Kysely<DB>,
  overrides: Partial<Insertable<OrganisationsTable>> = {},
): Promise<Organisation> {
  return db
    .insertInto('organisations')
    .values({ id: randomUUID(), name: `School ${next()}`, ...overrides })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildLicense(
  db: Kysely<DB>,
  overrides: Partial<Insertable<LicensesTable>> & { organisationId?: string } = {},
): Promise<License> {
  const { organisationId, ...rest } = overrides;
  const orgId = rest.organisation_id ?? organisationId ?? (await buildOrganisation(db)).id;
  return db
    .insertInto('licenses')
    .values({ id: randomUUID(), name: `Licence ${next()}`, quantity: 10, book_quota: 20, library_quota: null, ...rest, organisation_id: orgId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A row in the identity "user" table (no password; identity tests sign up through the API). */
export async function buildUser(db: Kysely<DB>, overrides: Partial<Insertable<UserTable>> = {}): Promise<UserRow> {
  const n = next();
  const now = new Date();
  return db
    .insertInto('user')
    .values({
      id: randomUUID(),
      name: `User ${n}`,
      email: `user-${n}@example.org`,
      emailVerified: true,
      image: null,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A members row, a signed-up teacher (role 600) by default; creates its organisation when not given. */
export async function buildTeacher(
  db: Kysely<DB>,
  overrides: Partial<Insertable<DB['members']>> & { organisationId?: string } = {},
): Promise<Member> {
  const { organisationId, ...rest } = overrides;
  const orgId = rest.organisation_id ?? organisationId ?? (await buildOrganisation(db)).id;
  const n = next();
  return db
    .insertInto('members')
    .values({
      id: randomUUID(),
      email: `teacher-${n}@example.org`,
      display_name: `Teacher ${n}`,
      role: 600,
      pending: false,
      ...rest,
      organisation_id: orgId,
      ...(rest.email ? { email: rest.email.toLowerCase() } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * An organisation admin. With `userId` the admin row is linked to that user; without one a user with
 * the admin's e-mail is created (so a session can be made for it) unless `withUser: false`.
 */
export async function buildAdmin(
  db: Kysely<DB>,
  options: { organisationId?: string; email?: string; userId?: string | null; withUser?: boolean } = {},
): Promise<AdminRow & { user: UserRow | null }> {
  const organisationId = options.organisationId ?? (await buildOrganisation(db)).id;
  const email = (options.email ?? `admin-${next()}@example.org`).toLowerCase();
  let user: UserRow | null = null;
  if (options.userId === undefined && options.withUser !== false) {
    user =
      (await db.selectFrom('user').selectAll().where('email', '=', email).executeTakeFirst()) ??
      (await buildUser(db, { email, name: `Admin ${email.split('@')[0]}` }));
  }
  const row = await db
    .insertInto('admins')
    .values({ organisation_id: organisationId, email, user_id: options.userId ?? user?.id ?? null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...row, user };
}
