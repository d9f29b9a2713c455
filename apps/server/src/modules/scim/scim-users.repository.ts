import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { now } from '../../db/sql-helpers.js';
import type { DB, ScimUserAttributes } from '../../db/types.js';
import type { UserCriteria } from './scim-filter.js';
import type { ScimUserRow } from './scim-user.presenter.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * SQL for provisioned users: scim_users joined to members, always within one organisation (the token's). Member
 * writes that the Teachers screen also makes (remove, mark as active) are the members repository's.
 */

function selectUsers(db: Db, organisationId: string) {
  return db
    .selectFrom('scim_users as s')
    .innerJoin('members as m', (join) => join.onRef('m.organisation_id', '=', 's.organisation_id').onRef('m.id', '=', 's.member_id'))
    .where('s.organisation_id', '=', organisationId)
    .select([
      's.member_id', 's.user_name', 's.external_id', 's.attributes', 's.created_at', 's.updated_at',
      'm.email', 'm.display_name', 'm.revoked_at', 'm.updated_at as member_updated_at',
    ]);
}

type UsersQuery = ReturnType<typeof selectUsers>;

function applyCriteria<Q extends SelectQueryBuilder<DB & { s: DB['scim_users']; m: DB['members'] }, 's' | 'm', object>>(query: Q, criteria: UserCriteria): Q {
  let q = query;
  if (criteria.none) q = q.where(sql<boolean>`false`) as Q;
  if (criteria.userName !== undefined) q = q.where(sql<string>`lower(s.user_name)`, '=', criteria.userName) as Q;
  if (criteria.externalId !== undefined) q = q.where('s.external_id', '=', criteria.externalId) as Q;
  if (criteria.id !== undefined) q = q.where('s.member_id', '=', criteria.id) as Q;
  if (criteria.email !== undefined) q = q.where('m.email', '=', criteria.email) as Q;
  if (criteria.active !== undefined) q = q.where('m.revoked_at', criteria.active ? 'is' : 'is not', null) as Q;
  return q;
}

export async function findUser(db: Db, organisationId: string, memberId: string, options: { lock?: boolean } = {}): Promise<ScimUserRow | undefined> {
  let query: UsersQuery = selectUsers(db, organisationId).where('s.member_id', '=', memberId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** One page of the organisation's provisioned users matching the criteria, oldest first, and how many match. */
export async function listUsers(db: Db, organisationId: string, criteria: UserCriteria, window: { offset: number; limit: number }) {
  // Criteria on scim_users alone (none, userName, externalId, id) page and count there, and join members for the page's
  // rows only: an identity provider's import pages through every user, and the join of 100,000 rows for each page's
  // count and offset made a page take a third of a second (docs/performance.md, "SCIM provisioning").
  const onScimUsersAlone = criteria.email === undefined && criteria.active === undefined;
  if (onScimUsersAlone) {
    let ids = db.selectFrom('scim_users as s').where('s.organisation_id', '=', organisationId);
    if (criteria.none) ids = ids.where(sql<boolean>`false`);
    if (criteria.userName !== undefined) ids = ids.where(sql<string>`lower(s.user_name)`, '=', criteria.userName);
    if (criteria.externalId !== undefined) ids = ids.where('s.external_id', '=', criteria.externalId);
    if (criteria.id !== undefined) ids = ids.where('s.member_id', '=', criteria.id);
    const [rows, count] = await Promise.all([
      window.limit === 0
        ? Promise.resolve([] as ScimUserRow[])
        : selectUsers(db, organisationId)
            .where('s.member_id', 'in', ids.select('s.member_id').orderBy('s.created_at').orderBy('s.member_id').offset(window.offset).limit(window.limit))
            .orderBy('s.created_at').orderBy('s.member_id').execute(),
      ids.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }
  const base = applyCriteria(selectUsers(db, organisationId), criteria);
  const [rows, count] = await Promise.all([
    window.limit === 0 ? Promise.resolve([] as ScimUserRow[]) : base.orderBy('s.created_at').orderBy('s.member_id').offset(window.offset).limit(window.limit).execute(),
    applyCriteria(
      db.selectFrom('scim_users as s')
        .innerJoin('members as m', (join) => join.onRef('m.organisation_id', '=', 's.organisation_id').onRef('m.id', '=', 's.member_id'))
        .where('s.organisation_id', '=', organisationId),
      criteria,
    ).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A provisioned user with this userName (without case), other than `exceptMemberId`. */
export async function findByUserName(db: Db, organisationId: string, userName: string, exceptMemberId?: string) {
  let query = db
    .selectFrom('scim_users')
    .select('member_id')
    .where('organisation_id', '=', organisationId)
    .where(sql<string>`lower(user_name)`, '=', userName.toLowerCase());
  if (exceptMemberId) query = query.where('member_id', '<>', exceptMemberId);
  return query.executeTakeFirst();
}

/** The organisation's member with this e-mail, whether a provider already manages it, locked for the change. */
export async function findMemberByEmail(db: Db, organisationId: string, email: string) {
  return db
    .selectFrom('members as m')
    .leftJoin('scim_users as s', (join) => join.onRef('s.organisation_id', '=', 'm.organisation_id').onRef('s.member_id', '=', 'm.id'))
    .select(['m.id', 'm.is_student', 'm.is_provider_staff', 'm.revoked_at', 's.member_id as scim_member_id'])
    .where('m.organisation_id', '=', organisationId)
    .where('m.email', '=', email)
    .forUpdate('m')
    .executeTakeFirst();
}

/** A new pending teacher (role -600, as an imported one): they sign up later with the address. */
export async function insertPendingMember(db: Db, row: { id: string; organisationId: string; email: string; displayName: string }): Promise<void> {
  await db
    .insertInto('members')
    .values({ id: row.id, organisation_id: row.organisationId, email: row.email, display_name: row.displayName, role: -600, pending: true })
    .execute();
}

export async function insertScimUser(
  db: Db,
  row: { organisationId: string; memberId: string; userName: string; externalId: string | null; attributes: ScimUserAttributes },
): Promise<void> {
  await db
    .insertInto('scim_users')
    .values({
      organisation_id: row.organisationId, member_id: row.memberId, user_name: row.userName, external_id: row.externalId,
      attributes: JSON.stringify(row.attributes),
    })
    .execute();
}

export async function updateScimUser(
  db: Db,
  organisationId: string,
  memberId: string,
  row: { userName: string; externalId: string | null; attributes: ScimUserAttributes },
): Promise<void> {
  await db
    .updateTable('scim_users')
    .set({ user_name: row.userName, external_id: row.externalId, attributes: JSON.stringify(row.attributes), updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('member_id', '=', memberId)
    .execute();
}

/** The member's e-mail and name as the provider sends them. */
export async function updateMemberContact(db: Db, organisationId: string, memberId: string, contact: { email: string; displayName: string }): Promise<void> {
  await db
    .updateTable('members')
    .set({ email: contact.email, display_name: contact.displayName, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', memberId)
    .execute();
}

/** The provider stops managing the member (DELETE): the member row stays, removed, as the Teachers screen leaves it. */
export async function deleteScimUser(db: Db, organisationId: string, memberId: string): Promise<void> {
  await db.deleteFrom('scim_users').where('organisation_id', '=', organisationId).where('member_id', '=', memberId).execute();
}

/** A unique index refused the write (PostgreSQL's unique_violation): two providers' requests raced for one name. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
