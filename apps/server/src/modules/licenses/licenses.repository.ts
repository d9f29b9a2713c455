import { sql, type Kysely } from 'kysely';
import { anyOf, now } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/** SQL for licences and the seats members hold. Functions take a Kysely instance or a transaction. */

export interface LockedLicense {
  id: string;
  quantity: number;
  book_quota: number;
  library_quota: number | null;
  apply_to_all: boolean;
}

/**
 * Locks licences of one organisation (SELECT … FOR UPDATE, in id order so two transactions never
 * deadlock) until the transaction ends: concurrent assignments of the same licence queue here.
 */
export async function lockLicenses(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<LockedLicense[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('licenses')
    .select(['id', 'quantity', 'book_quota', 'library_quota', 'apply_to_all'])
    .where('organisation_id', '=', organisationId)
    .where(anyOf('id', ids))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Seats in use per licence: active members holding it. Run after lockLicenses so the count is current. */
export async function countAllocated(db: Kysely<DB>, organisationId: string, ids: readonly string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
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
