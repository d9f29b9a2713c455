import type { Kysely, Transaction } from 'kysely';
import { lockOrganisationTree as lockTree, now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

export async function listAdminEmails(db: Db, organisationId: string) {
  return db.selectFrom('admins').select('email').where('organisation_id', '=', organisationId).orderBy('email').execute();
}

/** The organisation's name, locked for the rename that follows. */
export async function lockOrganisationName(db: Db, organisationId: string) {
  return db.selectFrom('organisations').select(['id', 'name']).where('id', '=', organisationId).forUpdate().executeTakeFirst();
}

export async function setOrganisationName(db: Db, organisationId: string, name: string) {
  return db
    .updateTable('organisations')
    .set({ name, updated_at: now() })
    .where('id', '=', organisationId)
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

/** The tree's exclusive lock: one move at a time, and none while seats are being allocated (db/sql-helpers.ts). */
export async function lockOrganisationTree(db: Db): Promise<void> {
  await lockTree('exclusive').execute(db);
}

/** An organisation's place in the tree: its parent and its depth (0 at the top). */
export async function findTreeNode(db: Db, organisationId: string) {
  return db
    .selectFrom('organisations as o')
    .select(['o.id', 'o.name', 'o.parent_id'])
    .select((eb) => eb.selectFrom('organisation_ancestors as a').select((e) => e.fn.max<number>('a.depth').as('d')).whereRef('a.organisation_id', '=', 'o.id').as('depth'))
    .where('o.id', '=', organisationId)
    .executeTakeFirst()
    .then((row) => (row ? { ...row, depth: Number(row.depth ?? 0) } : undefined));
}

/** True when `organisationId` is below `ancestorId` in the tree. */
export async function isBelow(db: Db, organisationId: string, ancestorId: string): Promise<boolean> {
  const row = await db
    .selectFrom('organisation_ancestors')
    .select('depth')
    .where('organisation_id', '=', organisationId)
    .where('ancestor_id', '=', ancestorId)
    .where('depth', '>', 0)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many levels there are below the organisation (0 for a school with nothing under it). */
export async function heightBelow(db: Db, organisationId: string): Promise<number> {
  const row = await db
    .selectFrom('organisation_ancestors')
    .select((eb) => eb.fn.max<number>('depth').as('h'))
    .where('ancestor_id', '=', organisationId)
    .executeTakeFirst();
  return Number(row?.h ?? 0);
}

/** True when the organisation has teachers of its own (invited or signed up, not removed; students are not teachers). */
export async function hasOwnTeachers(db: Db, organisationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('revoked_at', 'is', null)
    .where('is_student', '=', false)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setParent(db: Db, organisationId: string, parentId: string | null): Promise<void> {
  await db.updateTable('organisations').set({ parent_id: parentId, updated_at: now() }).where('id', '=', organisationId).execute();
}

/** The licences the organisation holds from `fromId` (a school's shares of its district's licences), by name. */
export async function listAllocationsHeld(db: Db, organisationId: string, fromId: string) {
  return db
    .selectFrom('licenses')
    .select(['id', 'name', 'quantity'])
    .where('organisation_id', '=', organisationId)
    .where('allocated_from_organisation_id', '=', fromId)
    .orderBy('name')
    .execute();
}
