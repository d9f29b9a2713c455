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
    });
    created = Boolean(inserted);
    member = inserted ?? (await repo.lockMemberOfPerson(trx, organisationId, person));
    if (!member) throw new Error('ensureOrgMember: the member row could not be created');
  } else if (member.revoked_at) {
    await repo.restoreMember(trx, organisationId, member.id);
    member = { ...member, revoked_at: null };
    restored = true;
  }
  let grantedLicenseId: string | null = null;
  if (!member.license_id && !member.is_student) {
    const licenseId = await repo.findApplyToAllLicense(trx, organisationId);
    if (licenseId) {
      await repo.setMemberLicense(trx, organisationId, member.id, licenseId);
      member = { ...member, license_id: licenseId };
      grantedLicenseId = licenseId;
    }
  }
  return { member, created, restored, grantedLicenseId };
}
