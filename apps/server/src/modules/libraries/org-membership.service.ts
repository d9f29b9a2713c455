import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { TeacherMember } from './libraries.repository.js';
import * as repo from './org-membership.repository.js';

export interface Person {
  email: string;
  /** Identity user, when the person has signed in at least once. */
  userId: string | null;
  displayName: string;
  /**
   * Provider staff (the provider's e-mail domain) visiting for support: a member for the library's
   * sake, marked so, never one of the school's teachers and given no licence seat.
   */
  providerStaff?: boolean;
}

export interface EnsuredMember {
  member: TeacherMember;
  /** A member row was created for the person. */
  created: boolean;
  /** A removed membership was made active again. */
  restored: boolean;
  /** The apply-to-all licence given now, if any. */
  grantedLicenseId: string | null;
}

/**
 * Makes the person an active member of the organisation inside the caller's transaction (spec §4: a visiting
 * admin "is first added to the organisation and, where the licence applies to all, given a licence").
 */
export async function ensureOrgMember(trx: Transaction<DB>, organisationId: string, person: Person): Promise<EnsuredMember> {
  let member = await repo.lockMemberOfPerson(trx, organisationId, person);
  let created = false;
  let restored = false;
  if (!member) {
    const inserted = await repo.insertMember(trx, {
      id: randomUUID(), organisationId, email: person.email, userId: person.userId, displayName: person.displayName, signedUp: person.userId !== null,
      providerStaff: person.providerStaff ?? false,
    });
    created = Boolean(inserted);
    member = inserted ?? (await repo.lockMemberOfPerson(trx, organisationId, person));
    if (!member) throw new Error('ensureOrgMember: the member row could not be created');
  } else if (member.revoked_at) {
    await repo.restoreMember(trx, organisationId, member.id);
    member = { ...member, revoked_at: null };
    restored = true;
  }
  if (person.providerStaff && !member.is_provider_staff) {
    await repo.markProviderStaff(trx, organisationId, member.id);
    member = { ...member, is_provider_staff: true, license_id: null };
  }
  let grantedLicenseId: string | null = null;
  // Staff hold no seat of the school's licences.
  if (!member.license_id && !member.is_student && !member.is_provider_staff) {
    const licenseId = await repo.findApplyToAllLicense(trx, organisationId);
    if (licenseId) {
      await repo.setMemberLicense(trx, organisationId, member.id, licenseId);
      member = { ...member, license_id: licenseId };
      grantedLicenseId = licenseId;
    }
  }
  return { member, created, restored, grantedLicenseId };
}
