import { sql, type Kysely } from 'kysely';
import { anyOf, now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/** SQL for licences and the seats members hold. Functions take a Kysely instance or a transaction. */

export interface LockedLicense {
  id: string;
  name: string;
  quantity: number;
  book_quota: number;
  library_quota: number | null;
  apply_to_all: boolean;
  /** Set on a school's share of a district licence: the district. */
  allocated_from_organisation_id: string | null;
}

/**
 * Locks licences of one organisation (SELECT … FOR UPDATE, in id order so two transactions never
 * deadlock) until the transaction ends: concurrent assignments of the same licence queue here.
 */
export async function lockLicenses(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<LockedLicense[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('licenses')
    .select(['id', 'name', 'quantity', 'book_quota', 'library_quota', 'apply_to_all', 'allocated_from_organisation_id'])
    .where('organisation_id', '=', organisationId)
    .where(anyOf('id', ids))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * Seats in use per licence: active members holding it, plus seats of it allocated to the schools below (a
 * district's licence). Run after lockLicenses so the count is current: allocations lock the district licence too.
 */
export async function countAllocated(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  // One after the other: inside a transaction both run on its one connection anyway.
  const held = await countHolders(db, organisationId, ids);
  const shared = await countAllocatedBelow(db, organisationId, ids);
  const used = new Map(held);
  for (const [id, seats] of shared) used.set(id, (used.get(id) ?? 0) + seats);
  return used;
}

/** Seats of each licence allocated to the schools below, all together. */
async function countAllocatedBelow(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('licenses')
    .select(['allocated_from_license_id', (eb) => eb.fn.sum<number>('quantity').as('n')])
    .where('allocated_from_organisation_id', '=', organisationId)
    .where(anyOf('allocated_from_license_id', ids))
    .groupBy('allocated_from_license_id')
    .execute();
  return new Map(rows.map((r) => [r.allocated_from_license_id as string, Number(r.n)]));
}

/** Active members holding each licence. */
async function countHolders(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('members')
    .select(['license_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('organisation_id', '=', organisationId)
    .where(anyOf('license_id', ids))
    // Removed members hold no seat (the licence dashboard counts the same way).
    .where('revoked_at', 'is', null)
    .groupBy('license_id')
    .execute();
  return new Map(rows.map((r) => [r.license_id as string, Number(r.n)]));
}

/** The members among ids, with what the licence rules need. */
export async function findMembersForLicense(db: Kysely<DB>, organisationId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('members')
    .select(['id', 'license_id', 'revoked_at', 'is_student'])
    .where('organisation_id', '=', organisationId)
    // Provider staff visiting for support are no teachers of the school and hold no seat.
    .where('is_provider_staff', '=', false)
    .where(anyOf('id', ids))
    .execute();
}

/** Puts members on a licence (or none), in one statement; returns the ids changed. */
export async function setMembersLicense(
  db: Kysely<DB>,
  organisationId: string,
  memberIds: readonly string[],
  licenseId: string | null,
): Promise<string[]> {
  if (memberIds.length === 0) return [];
  const rows = await db
    .updateTable('members')
    .set({ license_id: licenseId, updated_at: now() })
    .where('organisation_id', '=', organisationId)
    .where(anyOf('id', memberIds))
    .where(sql<boolean>`license_id IS DISTINCT FROM ${licenseId}::text`)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The organisation's licences with the seats in use of each (active members holding it, plus seats allocated to the
 * schools below), and for a school's share of a district licence, the district's name.
 */
export async function listLicensesWithAllocation(db: Kysely<DB>, organisationId: string) {
  return db
    .selectFrom('licenses as l')
    .leftJoin('members as m', (join) =>
      join.onRef('m.organisation_id', '=', 'l.organisation_id').onRef('m.license_id', '=', 'l.id').on('m.revoked_at', 'is', null),
    )
    .leftJoin('organisations as src', 'src.id', 'l.allocated_from_organisation_id')
    .select((eb) => [
      'l.id',
      'l.name',
      'l.quantity',
      'l.book_quota',
      'l.library_quota',
      'l.apply_to_all',
      'l.allocated_from_organisation_id',
      'l.allocated_from_license_id',
      'src.name as allocated_from_name',
      eb.fn.count<number>('m.id').as('allocated'),
      eb
        .selectFrom('licenses as b')
        .select((e) => e.fn.coalesce(e.fn.sum<number>('b.quantity'), sql<number>`0`).as('n'))
        .whereRef('b.allocated_from_organisation_id', '=', 'l.organisation_id')
        .whereRef('b.allocated_from_license_id', '=', 'l.id')
        .as('allocated_below'),
    ])
    .where('l.organisation_id', '=', organisationId)
    // The whole primary key of a tenant table, so the other columns of l depend on the group where the key includes
    // organisation_id too (sharded by tenant).
    .groupBy(['l.organisation_id', 'l.id', 'src.name'])
    .orderBy('l.created_at')
    .orderBy('l.id')
    .execute();
}


/** The names of licences by id (an audit entry's old and new licence). */
export async function licenseNames(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('licenses').select(['id', 'name']).where('organisation_id', '=', organisationId).where(anyOf('id', ids)).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
