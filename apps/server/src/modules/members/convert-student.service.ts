import { randomUUID } from 'node:crypto';
import { DEFAULT_MY_BOOKS_LIBRARY_NAME, type ConvertToStudentResult } from '@quire/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { findOrgAccess } from '../access/org-access.js';
import { upsertPrivateLibrary } from '../libraries/private-library.repository.js';
import * as repo from './members.repository.js';

const convertErrors = {
  pending: "This teacher hasn't signed up yet, so they can't be switched to a student",
  inactive: 'This teacher has been removed from the organisation',
  ambiguous: 'This teacher belongs to several of your organisations: say which one (organisationId)',
} as const;

export interface ConvertToStudentInput {
  /** A member id or the teacher's identity user id. */
  userId: string;
  myBooksLibraryName?: string;
  /** Needed only when the teacher is a member of several organisations the actor administers. */
  organisationId?: string;
}

/**
 * Switch to student: the member becomes a student of the actor's organisation (leaving the teachers
 * list and freeing their licence), and their private library takes the given name (created if missing).
 */
export async function convertToStudent(db: Kysely<DB>, actor: Actor, input: ConvertToStudentInput): Promise<ConvertToStudentResult> {
  const name = (input.myBooksLibraryName ?? DEFAULT_MY_BOOKS_LIBRARY_NAME).trim();
  if (name.length < 1 || name.length > 128) throw appError('invalid_library_name');
  const memberships = (await repo.findMembershipsOf(db, input.userId)).filter(
    (m) => !input.organisationId || m.organisation_id === input.organisationId,
  );
  // Only organisations the actor administers count; a reader's access ends in 403, none in 404.
  const access = await Promise.all(memberships.map((m) => findOrgAccess(db, actor, m.organisation_id).then((found) => found?.level ?? null)));
  const administered = memberships.filter((_, i) => access[i] === 'admin');
  if (administered.length === 0) {
    if (access.some(Boolean)) throw appError('forbidden');
    throw appError('teacher_not_found');
  }
  if (administered.length > 1) throw appError('organisation_required', { message: convertErrors.ambiguous });
  const member = administered[0]!;
  if (member.is_student) throw appError('already_converted');
  if (member.revoked_at) throw appError('teacher_inactive', { message: convertErrors.inactive });
  if (member.pending || member.role < 0) throw appError('teacher_pending', { message: convertErrors.pending });
  if (member.user_id === actor.userId || member.email === actor.email.toLowerCase()) throw appError('self');

  return db.transaction().execute(async (trx) => {
    await repo.markStudent(trx, member.organisation_id, member.id);
    const library = await upsertPrivateLibrary(trx, member.organisation_id, member.id, name, randomUUID());
    await recordAudit(trx, actor, {
      organisationId: member.organisation_id, action: 'members.convert_to_student', targetType: 'member', targetIds: [member.id],
      details: { freedLicenseId: member.license_id, myBooksLibrary: library },
      oldValue: { account: 'Teacher' }, newValue: { account: 'Student' },
    });
    return { memberId: member.id, organisationId: member.organisation_id, isStudent: true as const, myBooksLibrary: library };
  });
}
