import { sql, type Kysely, type Transaction } from 'kysely';
import { anyOf, now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/**
 * SQL for provisioned groups, their members and the admins a group of admins made; always within one organisation
 * (the token's).
 */

export interface GroupCriteria {
  displayName?: string;
  externalId?: string;
  id?: string;
  /** Groups this provisioned user is a member of. */
  memberId?: string;
  /** A condition no group meets (`a eq "x" and a eq "y"`). */
  none?: boolean;
}

export interface ScimGroupRow {
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

function selectGroups(db: Db, organisationId: string, criteria: GroupCriteria) {
  let query = db.selectFrom('scim_groups as g').where('g.organisation_id', '=', organisationId);
  if (criteria.none) query = query.where(sql<boolean>`false`);
  if (criteria.displayName !== undefined) query = query.where(sql<string>`lower(g.display_name)`, '=', criteria.displayName.toLowerCase());
  if (criteria.externalId !== undefined) query = query.where('g.external_id', '=', criteria.externalId);
  if (criteria.id !== undefined) query = query.where('g.id', '=', criteria.id);
  if (criteria.memberId !== undefined) {
    const memberId = criteria.memberId;
    query = query.where((eb) =>
      eb.exists(eb.selectFrom('scim_group_members as gm').select('gm.group_id').whereRef('gm.organisation_id', '=', 'g.organisation_id').whereRef('gm.group_id', '=', 'g.id').where('gm.member_id', '=', memberId)),
    );
  }
  return query;
}

export async function findGroup(db: Db, organisationId: string, id: string, options: { lock?: boolean } = {}): Promise<ScimGroupRow | undefined> {
  let query = selectGroups(db, organisationId, { id }).select(['g.id', 'g.display_name', 'g.external_id', 'g.created_at', 'g.updated_at']);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** One page of the organisation's groups matching the criteria, oldest first, and how many match. */
export async function listGroups(db: Db, organisationId: string, criteria: GroupCriteria, window: { offset: number; limit: number }) {
  const [rows, count] = await Promise.all([
    window.limit === 0
      ? Promise.resolve([] as ScimGroupRow[])
      : selectGroups(db, organisationId, criteria)
          .select(['g.id', 'g.display_name', 'g.external_id', 'g.created_at', 'g.updated_at'])
          .orderBy('g.created_at').orderBy('g.id').offset(window.offset).limit(window.limit).execute(),
    selectGroups(db, organisationId, criteria).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A group with this displayName (without case), other than `exceptId`. */
export async function findByDisplayName(db: Db, organisationId: string, displayName: string, exceptId?: string) {
  let query = selectGroups(db, organisationId, { displayName }).select('g.id');
  if (exceptId) query = query.where('g.id', '<>', exceptId);
  return query.executeTakeFirst();
}

export async function insertGroup(db: Db, row: { organisationId: string; id: string; displayName: string; externalId: string | null }): Promise<void> {
  await db.insertInto('scim_groups').values({ organisation_id: row.organisationId, id: row.id, display_name: row.displayName, external_id: row.externalId }).execute();
}

export async function updateGroup(db: Db, organisationId: string, id: string, row: { displayName: string; externalId: string | null }): Promise<void> {
  await db
    .updateTable('scim_groups')
    .set({ display_name: row.displayName, external_id: row.externalId, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .execute();
}

export async function deleteGroup(db: Db, organisationId: string, id: string): Promise<void> {
  await db.deleteFrom('scim_groups').where('organisation_id', '=', organisationId).where('id', '=', id).execute();
}

/** Members of the groups, with the address and userName to show for each, by group. */
export async function listMembers(db: Db, organisationId: string, groupIds: readonly string[]) {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom('scim_group_members as gm')
    .innerJoin('scim_users as s', (join) => join.onRef('s.organisation_id', '=', 'gm.organisation_id').onRef('s.member_id', '=', 'gm.member_id'))
    .select(['gm.group_id', 'gm.member_id', 's.user_name'])
    .where('gm.organisation_id', '=', organisationId)
    .where(anyOf('gm.group_id', groupIds))
    .orderBy('gm.group_id')
    .orderBy('s.user_name')
    .execute();
}

/** Which of these ids are the organisation's provisioned users. */
export async function existingUsers(db: Db, organisationId: string, memberIds: readonly string[]): Promise<Set<string>> {
  if (memberIds.length === 0) return new Set();
  const rows = await db.selectFrom('scim_users').select('member_id').where('organisation_id', '=', organisationId).where(anyOf('member_id', memberIds)).execute();
  return new Set(rows.map((r) => r.member_id));
}

export async function addMembers(db: Db, organisationId: string, groupId: string, memberIds: readonly string[]): Promise<void> {
  if (memberIds.length === 0) return;
  await db
    .insertInto('scim_group_members')
    .values(memberIds.map((memberId) => ({ organisation_id: organisationId, group_id: groupId, member_id: memberId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeMembers(db: Db, organisationId: string, groupId: string, memberIds: readonly string[]): Promise<void> {
  if (memberIds.length === 0) return;
  await db.deleteFrom('scim_group_members').where('organisation_id', '=', organisationId).where('group_id', '=', groupId).where(anyOf('member_id', memberIds)).execute();
}

/**
 * The memberships of the member the outer query names (`organisationRef`, `memberRef`: its columns) in the group called
 * `name` (without case): for an `exists` in that query.
 */
function groupNamedHolding(db: Db, organisationRef: string, memberRef: string, name: string) {
  return db
    .selectFrom('scim_group_members as gm')
    .innerJoin('scim_groups as g', (join) => join.onRef('g.organisation_id', '=', 'gm.organisation_id').onRef('g.id', '=', 'gm.group_id'))
    .select('gm.group_id')
    .where('gm.organisation_id', '=', sql.ref<string>(organisationRef))
    .where('gm.member_id', '=', sql.ref<string>(memberRef))
    .where(sql<string>`lower(g.display_name)`, '=', name.toLowerCase());
}

/**
 * What decides whether a user should be an admin through a group: their address and status when still provisioned,
 * whether they are in the group of admins, and the admin the group made for them, if any.
 */
export async function adminState(db: Db, organisationId: string, memberId: string, adminsGroup: string) {
  const user = await db
    .selectFrom('scim_users as s')
    .innerJoin('members as m', (join) => join.onRef('m.organisation_id', '=', 's.organisation_id').onRef('m.id', '=', 's.member_id'))
    .select(['m.email', 'm.revoked_at'])
    .select((eb) =>
      eb.exists(groupNamedHolding(db, 's.organisation_id', 's.member_id', adminsGroup)).as('in_admins_group'),
    )
    .where('s.organisation_id', '=', organisationId)
    .where('s.member_id', '=', memberId)
    .executeTakeFirst();
  const grant = await db.selectFrom('scim_admin_grants').select('email').where('organisation_id', '=', organisationId).where('member_id', '=', memberId).forUpdate().executeTakeFirst();
  return { user, grantedEmail: grant?.email ?? null };
}

export async function recordGrant(db: Db, organisationId: string, memberId: string, email: string): Promise<void> {
  await db
    .insertInto('scim_admin_grants')
    .values({ organisation_id: organisationId, member_id: memberId, email })
    .onConflict((oc) => oc.columns(['organisation_id', 'member_id']).doUpdateSet({ email }))
    .execute();
}

export async function dropGrant(db: Db, organisationId: string, memberId: string): Promise<void> {
  await db.deleteFrom('scim_admin_grants').where('organisation_id', '=', organisationId).where('member_id', '=', memberId).execute();
}

/**
 * What the library managers group holds for one user: the member (pending or not, active or not, its role), whether it
 * is still a provisioned user in that group, and whether a grant is recorded (locked for the change).
 */
export async function libraryManagerState(db: Db, organisationId: string, memberId: string, groupName: string) {
  const member = await db
    .selectFrom('members as m')
    .select(['m.role', 'm.pending', 'm.revoked_at'])
    .select((eb) =>
      eb.exists(groupNamedHolding(db, 'm.organisation_id', 'm.id', groupName)).as('in_group'),
    )
    .where('m.organisation_id', '=', organisationId)
    .where('m.id', '=', memberId)
    .forUpdate('m')
    .executeTakeFirst();
  const grant = await db
    .selectFrom('scim_library_manager_grants').select('member_id')
    .where('organisation_id', '=', organisationId).where('member_id', '=', memberId)
    .forUpdate().executeTakeFirst();
  return { member, granted: grant !== undefined };
}

export async function recordLibraryManagerGrant(db: Db, organisationId: string, memberId: string): Promise<void> {
  await db.insertInto('scim_library_manager_grants').values({ organisation_id: organisationId, member_id: memberId }).onConflict((oc) => oc.doNothing()).execute();
}

export async function dropLibraryManagerGrant(db: Db, organisationId: string, memberId: string): Promise<void> {
  await db.deleteFrom('scim_library_manager_grants').where('organisation_id', '=', organisationId).where('member_id', '=', memberId).execute();
}
