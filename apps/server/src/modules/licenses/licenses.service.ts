import { checkAssignable, licensesNeeded, type LicenseAssignment } from '@quire/core';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit, recordingRefusal } from '../access/audit.js';
import { requireOrgAccess } from '../access/org-access.js';
import { findOrganisationName } from './license-allocations.repository.js';
import * as repo from './licenses.repository.js';

/** Texts of refusals the spec does not word (see docs/teachers-api.md). */
const licenseErrors = {
  domainOrganisation: 'Licenses are assigned to the whole domain in this organisation and cannot be changed per teacher',
} as const;

export interface AssignLicenseInput {
  organisationId: string;
  licenseId: string;
  memberIds: string[];
  /** Recorded with the change, e.g. the filters of a bulk action on every matching teacher. */
  auditDetails?: Record<string, unknown>;
}

/**
 * Assigns a licence to members (spec §5 rule): in one transaction holding a row lock on the licence,
 * so two admins assigning at once can never over-allocate. Members already on it use no seat.
 */
export async function assignLicense(db: Kysely<DB>, actor: Actor, input: AssignLicenseInput): Promise<LicenseAssignment> {
  await requireLicenseChange(db, actor, input.organisationId);
  const refusal = { organisationId: input.organisationId, action: 'licenses.assign' as const, targetType: 'member', targetIds: [...new Set(input.memberIds)], details: { licenseId: input.licenseId } };
  return recordingRefusal(db, actor, refusal, LICENSE_REFUSALS, () => db.transaction().execute((trx) => assignLicenseIn(trx, actor, input)));
}

/** Refusals of an assignment worth a line in the audit log: no seat left. */
const LICENSE_REFUSALS = ['not_enough_licenses', 'not_enough_allocated_licenses'] as const;

/** The licences members held before a change, by name (null: none), for the entry's old value. */
async function previousLicenseNames(trx: Transaction<DB>, organisationId: string, previous: Array<string | null>): Promise<string | null> {
  const ids = [...new Set(previous.filter((id): id is string => id !== null))];
  const names = await repo.licenseNames(trx, organisationId, ids);
  const all = [...new Set(previous.map((id) => (id === null ? 'none' : (names.get(id) ?? id))))];
  return all.length ? all.join(', ') : null;
}

/** Who may change licences one by one: an organisation admin, never in a domain organisation. */
export async function requireLicenseChange(db: Kysely<DB>, actor: Actor, organisationId: string): Promise<void> {
  // Never in a domain organisation: every teacher there holds its apply-to-all licence.
  const { organisation } = await requireOrgAccess(db, actor, organisationId, 'admin');
  if (organisation.is_domain) throw appError('domain_organisation', { message: licenseErrors.domainOrganisation });
}

/**
 * The assignment itself, inside the caller's transaction (also the bulk action on every matching teacher,
 * which works out the members in the same transaction). The caller has run requireLicenseChange.
 */
export async function assignLicenseIn(trx: Transaction<DB>, actor: Actor, input: AssignLicenseInput): Promise<LicenseAssignment> {
  const memberIds = [...new Set(input.memberIds)];
  const [license] = await repo.lockLicenses(trx, input.organisationId, [input.licenseId]);
  if (!license) throw appError('license_not_found');
  if (license.apply_to_all) throw appError('license_applies_to_all');
  const members = await repo.findMembersForLicense(trx, input.organisationId, memberIds);
  if (members.length !== memberIds.length) throw appError('teacher_not_found');
  if (members.some((m) => m.revoked_at || m.is_student)) throw appError('teacher_inactive');
  const allocated = (await repo.countAllocated(trx, input.organisationId, [license.id])).get(license.id) ?? 0;
  // A school's share of a district licence: a refusal says which district allocates more.
  const districtName = license.allocated_from_organisation_id ? await findOrganisationName(trx, license.allocated_from_organisation_id) : undefined;
  const allocatedBy = districtName === undefined ? null : { organisationName: districtName };
  const check = {
    license: { quantity: license.quantity, allocated, bookQuota: license.book_quota, allocatedBy },
    selectedMemberIds: memberIds,
    membersAlreadyOnLicense: members.filter((m) => m.license_id === license.id).map((m) => m.id),
  };
  const refusal = checkAssignable(check);
  if (refusal) {
    const code = allocatedBy ? 'not_enough_allocated_licenses' : 'not_enough_licenses';
    throw appError(code, { message: refusal, details: { available: Math.max(0, license.quantity - allocated) } });
  }
  const assigned = await repo.setMembersLicense(trx, input.organisationId, memberIds, license.id);
  const before = members.filter((m) => assigned.includes(m.id)).map((m) => m.license_id);
  await recordAudit(trx, actor, {
    organisationId: input.organisationId, action: 'licenses.assign', targetType: 'member', targetIds: assigned,
    targets: [{ type: 'license', id: license.id, label: license.name }],
    oldValue: { license: await previousLicenseNames(trx, input.organisationId, before) },
    newValue: { license: license.name },
    details: {
      licenseId: license.id,
      previousLicenses: members.filter((m) => assigned.includes(m.id)).map((m) => ({ memberId: m.id, licenseId: m.license_id })),
      ...input.auditDetails,
    },
  });
  const nowAllocated = allocated + licensesNeeded(check);
  return { licenseId: license.id, assignedMemberIds: assigned, allocated: nowAllocated, available: license.quantity - nowAllocated };
}

/** Remove license: the members keep their membership without a licence. */
export async function removeLicenses(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; memberIds: string[] },
): Promise<{ memberIds: string[] }> {
  await requireLicenseChange(db, actor, input.organisationId);
  return db.transaction().execute((trx) => removeLicensesIn(trx, actor, input));
}

/** The removal itself, inside the caller's transaction; the caller has run requireLicenseChange. */
export async function removeLicensesIn(
  trx: Transaction<DB>,
  actor: Actor,
  input: { organisationId: string; memberIds: string[]; auditDetails?: Record<string, unknown> },
): Promise<{ memberIds: string[] }> {
  const memberIds = [...new Set(input.memberIds)];
  const members = await repo.findMembersForLicense(trx, input.organisationId, memberIds);
  if (members.length !== memberIds.length) throw appError('teacher_not_found');
  const changed = await repo.setMembersLicense(trx, input.organisationId, memberIds, null);
  const before = members.filter((m) => changed.includes(m.id)).map((m) => m.license_id);
  const removedIds = [...new Set(before.filter((id): id is string => id !== null))];
  const names = await repo.licenseNames(trx, input.organisationId, removedIds);
  await recordAudit(trx, actor, {
    organisationId: input.organisationId, action: 'licenses.remove', targetType: 'member', targetIds: changed,
    targets: removedIds.length === 1 ? [{ type: 'license', id: removedIds[0]!, label: names.get(removedIds[0]!) ?? null }] : [],
    oldValue: { license: await previousLicenseNames(trx, input.organisationId, before) },
    newValue: { license: null },
    details: { previousLicenses: members.filter((m) => changed.includes(m.id)).map((m) => ({ memberId: m.id, licenseId: m.license_id })), ...input.auditDetails },
  });
  return { memberIds: changed };
}
