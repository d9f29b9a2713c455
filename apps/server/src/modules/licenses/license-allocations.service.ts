import { libraryQuotaFromColumn, type LicenseAllocations } from '@quire/core';
import type { Kysely } from 'kysely';
import { lockOrganisationTree } from '../../db/sql-helpers.js';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAuditIn } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './license-allocations.repository.js';
import { countAllocated, listLicensesWithAllocation, lockLicenses } from './licenses.repository.js';

/**
 * Seats of a district's licence allocated to its schools (docs/districts.md). The rules, each checked in the
 * transaction that writes:
 * - a school assigns at most its allocation (its share is a licence of the school whose quantity is the seats, so
 *   today's assignment check under today's row lock applies);
 * - the district allocates at most what it holds: seats allocated to its schools plus seats it assigns to its own
 *   teachers never exceed the licence's quantity (both lock the district licence's row);
 * - an allocation is never lowered below what the school has assigned (the allocation's row is locked, so the
 *   school's assignments wait for it).
 */

export interface SetAllocationInput {
  organisationId: string;
  licenseId: string;
  schoolId: string;
  seats: number;
}

/** The district licence with every school's allocation (GET …/licenses/{licenseId}/allocations). */
export async function getLicenseAllocations(db: Kysely<DB>, actor: Actor, input: { organisationId: string; licenseId: string }): Promise<LicenseAllocations> {
  await requireOrgAccess(db, actor, input.organisationId, 'read');
  const license = await repo.findLicense(db, input.organisationId, input.licenseId);
  if (!license) throw appError('license_not_found');
  return readAllocations(db, input.organisationId, license);
}

/** Sets one school's allocation of a district licence; 0 returns every seat (the school's share disappears). */
export async function setLicenseAllocation(db: Kysely<DB>, actor: Actor, input: SetAllocationInput): Promise<LicenseAllocations> {
  const { organisation: district } = await requireOrgAccess(db, actor, input.organisationId, 'admin');
  return db.transaction().execute(async (trx) => {
    // The school stays under this district until the transaction ends: a move waits for it.
    await lockOrganisationTree('shared').execute(trx);
    // Every change of this licence's seats queues here, at the district: allocations and the district's own assignments.
    const [locked] = await lockLicenses(trx, district.id, [input.licenseId]);
    const license = locked ? await repo.findLicense(trx, district.id, locked.id) : undefined;
    if (!license) throw appError('license_not_found');
    const school = await repo.findSchoolOf(trx, district.id, input.schoolId);
    if (!school) throw appError('organisation_not_found');
    if (license.apply_to_all) {
      throw appError('allocation_not_allowed', { message: `${license.name} applies to all teachers of ${district.name}: its seats cannot be allocated to schools.` });
    }
    if (school.is_domain) {
      throw appError('allocation_not_allowed', { message: `${school.name} gives every teacher its domain license: seats of ${license.name} cannot be allocated to it.` });
    }

    const allocation = await repo.lockAllocation(trx, school.id, district.id, license.id);
    const before = allocation?.quantity ?? 0;
    if (allocation) {
      const assigned = (await countAllocated(trx, school.id, [allocation.id])).get(allocation.id) ?? 0;
      if (input.seats < assigned) {
        throw appError('allocation_below_assigned', {
          message: `${school.name} has assigned ${assigned} seats of ${license.name}, so its allocation cannot be lowered below ${assigned}. Remove licenses from its teachers first.`,
          details: { assigned },
        });
      }
    }
    const used = (await countAllocated(trx, district.id, [license.id])).get(license.id) ?? 0;
    const left = license.quantity - (used - before);
    if (input.seats > left) {
      throw appError('allocation_exceeds_license', {
        message: `${district.name} holds ${license.quantity} seats of ${license.name} and ${used - before} of them are assigned or allocated to other schools, so at most ${Math.max(0, left)} can be allocated to ${school.name}.`,
        details: { available: Math.max(0, left) },
      });
    }
    if (input.seats === before) return readAllocations(trx, district.id, license);

    if (!allocation) await repo.insertAllocation(trx, school.id, license, input.seats);
    else if (input.seats === 0) await repo.deleteAllocation(trx, school.id, allocation.id);
    else await repo.setAllocationSeats(trx, school.id, allocation.id, input.seats);

    const details = { licenseId: license.id, license: license.name, schoolId: school.id, school: school.name, from: before, to: input.seats };
    await recordAuditIn(trx, [district.id, school.id], actor, { action: 'licenses.allocate', targetType: 'organisation', targetIds: [school.id], details });
    return readAllocations(trx, district.id, license);
  });
}

/** The district licence's figures and its schools' allocations. */
async function readAllocations(db: Kysely<DB>, districtId: string, license: { id: string; name: string; quantity: number }): Promise<LicenseAllocations> {
  const rows = await repo.listAllocations(db, districtId, [license.id]);
  const used = (await countAllocated(db, districtId, [license.id])).get(license.id) ?? 0;
  const allocatedToSchools = rows.reduce((sum, r) => sum + r.seats, 0);
  return {
    licenseId: license.id,
    name: license.name,
    quantity: license.quantity,
    assignedHere: used - allocatedToSchools,
    allocatedToSchools,
    available: license.quantity - used,
    allocations: rows.map(presentAllocation),
  };
}

function presentAllocation(row: repo.AllocationRow) {
  return { organisationId: row.organisation_id, organisationName: row.organisation_name, seats: row.seats, assigned: row.assigned };
}

/**
 * The licence dashboard's licences. `allocated` counts every seat in use here (members holding it and seats allocated
 * to the schools below), so quantity minus allocated is what may still be assigned or allocated. A district's
 * licences list each school's allocation; a school's share names the district it comes from.
 */
export async function getOrganisationLicenses(db: Kysely<DB>, organisationId: string) {
  const rows = await listLicensesWithAllocation(db, organisationId);
  const allocations = await repo.listAllocations(db, organisationId, rows.map((r) => r.id));
  return rows.map((r) => {
    const allocated = Number(r.allocated) + Number(r.allocated_below ?? 0);
    return {
      id: r.id,
      name: r.name,
      allocated,
      quantity: r.quantity,
      available: r.quantity - allocated,
      bookQuota: r.book_quota,
      libraryQuota: libraryQuotaFromColumn(r.library_quota),
      applyToAll: r.apply_to_all,
      allocatedBy:
        r.allocated_from_organisation_id && r.allocated_from_license_id
          ? { organisationId: r.allocated_from_organisation_id, organisationName: r.allocated_from_name ?? '', licenseId: r.allocated_from_license_id }
          : null,
      allocations: allocations.filter((a) => a.license_id === r.id).map(presentAllocation),
    };
  });
}

