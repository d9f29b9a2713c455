import { isProviderStaffEmail, type DeleteCheck, type LibrariesOnArchive, type UserArchived } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { isListedAdmin } from '../access/org-access.js';
import * as repo from './libraries.repository.js';
import { requireTeacherScope, type TeacherScope } from './teacher-scope.js';
import { revokeMember } from './user-archive.repository.js';
import { moveSharedLibraries } from './library-transfers.service.js';

/** Why an account cannot be deleted; the console appends these to 'Error deleting teacher'. */
const deleteCheckReasons = {
  self: "You can't delete your own account",
  alreadyRemoved: 'This teacher has already been removed from the organisation',
  isAdmin: 'This teacher is an admin of the organisation: remove them from the admins first',
  domainOrganisation: 'Teachers cannot be removed from a domain organisation',
  onlyPending: 'Only pending teachers can be removed from this organisation',
} as const;

export interface DeleteCheckInput {
  organisationId: string;
  teacherId: string;
  /** Provider staff are recognised by this e-mail domain (they may remove any teacher, spec §6). */
  providerEmailDomain: string;
}

async function check(db: Kysely<DB>, actor: Actor, scope: TeacherScope, input: DeleteCheckInput): Promise<DeleteCheck> {
  const { teacher } = scope;
  const reasons: string[] = [];
  if (teacher.user_id === actor.userId || teacher.email === actor.email.toLowerCase()) reasons.push(deleteCheckReasons.self);
  if (teacher.revoked_at) reasons.push(deleteCheckReasons.alreadyRemoved);
  if (await isListedAdmin(db, { email: teacher.email, userId: teacher.user_id }, input.organisationId)) reasons.push(deleteCheckReasons.isAdmin);
  // Spec §6: Remove teacher is offered to provider staff, or for pending teachers in non-domain organisations.
  if (!isProviderStaffEmail(actor.email, input.providerEmailDomain)) {
    if (scope.access.organisation.is_domain) reasons.push(deleteCheckReasons.domainOrganisation);
    else if (!teacher.pending) reasons.push(deleteCheckReasons.onlyPending);
  }
  const ownedLibraries = await repo.countOwnedUnarchived(db, input.organisationId, teacher.id);
  return { canDelete: reasons.length === 0, reasons, ownedLibraries };
}

/** POST {api}/admin-tools/v2/{teacherId}/users/delete-check: whether the account can be deleted, and why not. */
export async function deleteCheck(db: Kysely<DB>, actor: Actor, input: DeleteCheckInput): Promise<DeleteCheck> {
  const scope = await requireTeacherScope(db, actor, input, 'admin');
  return check(db, actor, scope, input);
}


/**
 * POST {api}/admin-tools/v2/{teacherId}/users/archive: in one transaction, optionally gives the shared libraries to
 * a teacher or admin (`libraries`), closes the libraries the teacher still owns (My Books included) and removes them from the organisation (Inactive, Removed date, licence freed). The identity account stays.
 */
export async function archiveUser(
  db: Kysely<DB>,
  actor: Actor,
  input: DeleteCheckInput & { organisationName?: string; libraries?: LibrariesOnArchive },
): Promise<UserArchived> {
  const scope = await requireTeacherScope(db, actor, input, 'admin');
  const verdict = await check(db, actor, scope, input);
  if (!verdict.canDelete) throw appError('cannot_delete', { message: verdict.reasons.join(' '), details: { reasons: verdict.reasons } });
  const { teacher } = scope;
  return db.transaction().execute(async (trx) => {
    // One transaction for the whole flow: the libraries move only if the teacher is removed too.
    const moved =
      input.libraries && input.libraries.action !== 'archive'
        ? await moveSharedLibraries(trx, actor, scope, {
            organisationId: input.organisationId,
            teacherId: teacher.id,
            newOwnerId: input.libraries.newOwnerId,
            type: input.libraries.action,
            providerEmailDomain: input.providerEmailDomain,
          })
        : null;
    const { libraryIds } = await repo.archiveOwned(trx, input.organisationId, teacher.id);
    const revokedAt = await revokeMember(trx, input.organisationId, teacher.id);
    // Removed meanwhile by someone else: report it as the check would have.
    if (!revokedAt) throw appError('cannot_delete', { message: deleteCheckReasons.alreadyRemoved, details: { reasons: [deleteCheckReasons.alreadyRemoved] } });
    await recordAudit(trx, actor, {
      organisationId: input.organisationId,
      action: 'members.archive',
      targetType: 'member',
      targetIds: [teacher.id],
      details: { email: teacher.email, archivedLibraryIds: libraryIds, freedLicenseId: teacher.license_id, organisationName: input.organisationName ?? null },
      oldValue: { status: 'Active' }, newValue: { status: 'Archived' },
    });
    return {
      memberId: teacher.id,
      revokedAt: revokedAt.toISOString(),
      transferredLibraryIds: moved?.libraryIds ?? [],
      archivedLibraryIds: libraryIds,
      freedLicenseId: teacher.license_id,
    };
  });
}
