import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { anyOf } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';

/**
 * SQL for seats of a district licence allocated to its schools (docs/districts.md). A school's allocation is a
 * licence row of the school naming the district licence it comes from; its quantity is the seats allocated.
 */

type Db = Kysely<DB> | Transaction<DB>;

export interface AllocationRow {
  /** The district licence. */
  license_id: string;
  /** The school (an organisation directly below the district). */
  organisation_id: string;
  organisation_name: string;
  /** Seats allocated (0 when the school has none of this licence). */
  seats: number;
  /** Seats of the allocation in use at the school: its teachers holding it, and any seats it allocated further down. */
  assigned: number;
}

/**
 * For each of the district's licences, every school directly below it with its allocation: one statement, schools
 * by name. A school without an allocation of a licence answers 0 seats.
 */
export async function listAllocations(db: Db, districtId: string, licenseIds: readonly string[]): Promise<AllocationRow[]> {
  if (licenseIds.length === 0) return [];
  const result = await sql<AllocationRow>`
    SELECT d.id AS license_id, o.id AS organisation_id, o.name AS organisation_name,
      coalesce(s.quantity, 0)::int AS seats,
      (CASE WHEN s.id IS NULL THEN 0 ELSE
        (SELECT count(*) FROM members m WHERE m.organisation_id = s.organisation_id AND m.license_id = s.id AND m.revoked_at IS NULL)
        + (SELECT coalesce(sum(b.quantity), 0) FROM licenses b WHERE b.allocated_from_organisation_id = s.organisation_id AND b.allocated_from_license_id = s.id)
      END)::int AS assigned
    FROM licenses d
    JOIN organisations o ON o.parent_id = d.organisation_id
    LEFT JOIN licenses s ON s.organisation_id = o.id AND s.allocated_from_organisation_id = d.organisation_id AND s.allocated_from_license_id = d.id
    WHERE d.organisation_id = ${districtId} AND ${anyOf('d.id', licenseIds)} AND NOT d.apply_to_all
    ORDER BY d.id, o.name, o.id`.execute(db);
  return result.rows.map((r) => ({ ...r, seats: Number(r.seats), assigned: Number(r.assigned) }));
}

/** An organisation directly below the district, or undefined (another district's school, the district itself, nothing). */
export async function findSchoolOf(db: Db, districtId: string, schoolId: string) {
  return db
    .selectFrom('organisations')
    .select(['id', 'name', 'is_domain'])
    .where('id', '=', schoolId)
    .where('parent_id', '=', districtId)
    .executeTakeFirst();
}

export async function findOrganisationName(db: Db, organisationId: string): Promise<string | undefined> {
  const row = await db.selectFrom('organisations').select('name').where('id', '=', organisationId).executeTakeFirst();
  return row?.name;
}

/** The school's allocation of the district licence, locked until the transaction ends (the school's assignments queue on it). */
export async function lockAllocation(db: Db, schoolId: string, districtId: string, districtLicenseId: string) {
  return db
    .selectFrom('licenses')
    .select(['id', 'quantity'])
    .where('organisation_id', '=', schoolId)
    .where('allocated_from_organisation_id', '=', districtId)
    .where('allocated_from_license_id', '=', districtLicenseId)
    .forUpdate()
    .executeTakeFirst();
}

/** The district licence's fields a school's allocation copies: its name and quotas. */
export interface AllocatedLicense {
  id: string;
  organisation_id: string;
  name: string;
  book_quota: number;
  library_quota: number | null;
}

/** A new allocation: a licence of the school with the district licence's name and quotas, `seats` of it. */
export async function insertAllocation(db: Db, schoolId: string, from: AllocatedLicense, seats: number): Promise<string> {
  const row = await db
    .insertInto('licenses')
    .values({
      id: randomUUID(),
      organisation_id: schoolId,
      name: from.name,
      quantity: seats,
      book_quota: from.book_quota,
      library_quota: from.library_quota,
      apply_to_all: false,
      allocated_from_organisation_id: from.organisation_id,
      allocated_from_license_id: from.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setAllocationSeats(db: Db, schoolId: string, allocationId: string, seats: number): Promise<void> {
  await db.updateTable('licenses').set({ quantity: seats }).where('organisation_id', '=', schoolId).where('id', '=', allocationId).execute();
}

/** Removes an allocation returned in full (no teacher of the school holds it any more). */
export async function deleteAllocation(db: Db, schoolId: string, allocationId: string): Promise<void> {
  await db.deleteFrom('licenses').where('organisation_id', '=', schoolId).where('id', '=', allocationId).execute();
}

/** The district licence's own fields (the read of its allocations, without a lock). */
export async function findLicense(db: Db, organisationId: string, licenseId: string) {
  return db
    .selectFrom('licenses')
    .select(['id', 'organisation_id', 'name', 'quantity', 'book_quota', 'library_quota', 'apply_to_all'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', licenseId)
    .executeTakeFirst();
}
