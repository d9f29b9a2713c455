import { checkAssignable, licensesNeeded, type LicenseAssignment } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import * as repo from './licenses.repository.js';

/** Texts of refusals the spec does not word (see docs/teachers-api.md). */
export const licenseErrors = {
  licenseNotFound: 'License not found',
  teacherNotFound: 'Teacher not found',
  domainOrganisation: 'Licenses are assigned to the whole domain in this organisation and cannot be changed per teacher',
  applyToAll: 'This license applies to all teachers and cannot be assigned individually',
  inactiveMembers: 'Inactive teachers and students cannot be given a license',
} as const;

export interface AssignLicenseInput {
  organisationId: string;
  licenseId: string;
  memberIds: string[];
}

/** Admins only, and never in a domain organisation (every teacher holds its apply-to-all licence). */
async function requireLicensing(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<void> {
  const { organisation } = await requireOrgAccess(db, actor, organisationId, 'admin');
  if (organisation.is_domain) throw forbidden(licenseErrors.domainOrganisation, 'domain_organisation');
}

/**
 * Assigns a licence to members (spec §5 rule): in one transaction holding a row lock on the licence,
 * so two admins assigning at once can never over-allocate. Members already on it use no seat.
 */
export async function assignLicense(db: Kysely<DB>, actor: Actor, input: AssignLicenseInput): Promise<LicenseAssignment> {
  await requireLicensing(db, actor, input.organisationId);
  const memberIds = [...new Set(input.memberIds)];
  return db.transaction().execute(async (trx) => {
    const [license] = await repo.lockLicenses(trx, input.organisationId, [input.licenseId]);
    if (!license) throw notFound(licenseErrors.licenseNotFound, 'license_not_found');
    if (license.apply_to_all) throw conflict(licenseErrors.applyToAll, 'license_applies_to_all');
    const members = await repo.findMembersForLicense(trx, input.organisationId, memberIds);
    if (members.length !== memberIds.length) throw notFound(licenseErrors.teacherNotFound, 'teacher_not_found');
    if (members.some((m) => m.revoked_at || m.is_student)) throw conflict(licenseErrors.inactiveMembers, 'teacher_inactive');
    const allocated = (await repo.countAllocated(trx, input.organisationId, [license.id])).get(license.id) ?? 0;
    const check = {
      license: { quantity: license.quantity, allocated, bookQuota: license.book_quota },
      selectedMemberIds: memberIds,
      membersAlreadyOnLicense: members.filter((m) => m.license_id === license.id).map((m) => m.id),
    };
    const refusal = checkAssignable(check);
    if (refusal) throw conflict(refusal, 'not_enough_licenses', { available: Math.max(0, license.quantity - allocated) });
    const assigned = await repo.setMembersLicense(trx, input.organisationId, memberIds, license.id);
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'licenses.assign', targetType: 'member', targetIds: assigned,
      details: {
        licenseId: license.id,
        previousLicenses: members.filter((m) => assigned.includes(m.id)).map((m) => ({ memberId: m.id, licenseId: m.license_id })),
      },
    });
    const nowAllocated = allocated + licensesNeeded(check);
    return { licenseId: license.id, assignedMemberIds: assigned, allocated: nowAllocated, available: license.quantity - nowAllocated };
  });
}

/** Remove license: the members keep their membership without a licence. */
export async function removeLicenses(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; memberIds: string[] },
): Promise<{ memberIds: string[] }> {
  await requireLicensing(db, actor, input.organisationId);
  const memberIds = [...new Set(input.memberIds)];
  return db.transaction().execute(async (trx) => {
    const members = await repo.findMembersForLicense(trx, input.organisationId, memberIds);
    if (members.length !== memberIds.length) throw notFound(licenseErrors.teacherNotFound, 'teacher_not_found');
    const changed = await repo.setMembersLicense(trx, input.organisationId, memberIds, null);
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'licenses.remove', targetType: 'member', targetIds: changed,
      details: { previousLicenses: members.filter((m) => changed.includes(m.id)).map((m) => ({ memberId: m.id, licenseId: m.license_id })) },
    });
    return { memberIds: changed };
  });
}
