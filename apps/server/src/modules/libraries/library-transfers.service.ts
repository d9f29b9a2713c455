import { isProviderStaffEmail, LIBRARY_ROLE_CO_TEACHER, LIBRARY_ROLE_OWNER, type LibrariesArchived, type LibrariesReassigned } from '@quire/core';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { recordAudit } from '../access/audit.js';
import { isListedAdmin } from '../access/org-access.js';
import * as repo from './libraries.repository.js';
import { findUser } from './org-membership.repository.js';
import { ensureOrgMember } from './org-membership.service.js';
import { requireTeacherScope, type TeacherScope } from './teacher-scope.js';

export interface ReassignInput {
  organisationId: string;
  teacherId: string;
  newOwnerId: string;
  type: 'teacher' | 'admin';
  /** Provider staff are recognised by this e-mail domain: an admin of it taking over is marked staff. */
  providerEmailDomain?: string;
}

/** The target teacher, checked against the §5 rules. */
async function teacherTarget(trx: Transaction<DB>, scope: TeacherScope, input: ReassignInput) {
  if (input.newOwnerId === scope.teacher.id) throw appError('same_owner');
  const target = await repo.findMember(trx, input.organisationId, input.newOwnerId);
  // Provider staff visiting for support are no teachers of the school.
  if (!target || target.is_provider_staff) throw appError('target_not_found');
  if (target.pending || target.role < 0) throw appError('target_pending');
  if (target.revoked_at || target.is_student) throw appError('target_inactive');
  return { member: target, created: false };
}

/** The target admin (by e-mail, user id or member id), made a member when they are not one. */
async function adminTarget(trx: Transaction<DB>, scope: TeacherScope, input: ReassignInput) {
  const key = input.newOwnerId.trim();
  const member = await repo.findMember(trx, input.organisationId, key);
  const user = member
    ? await findUser(trx, member.user_id ? { id: member.user_id } : { email: member.email })
    : await findUser(trx, key.includes('@') ? { email: key } : { id: key });
  const email = (member?.email ?? user?.email ?? (key.includes('@') ? key : '')).toLowerCase();
  const userId = member?.user_id ?? user?.id ?? null;
  if (!email || !(await isListedAdmin(trx, { email, userId }, input.organisationId))) {
    throw appError('target_not_found');
  }
  const { teacher } = scope;
  if (member?.id === teacher.id || email === teacher.email || (userId !== null && userId === teacher.user_id)) {
    throw appError('same_owner');
  }
  const ensured = await ensureOrgMember(trx, input.organisationId, {
    email, userId, displayName: member?.display_name || user?.name || '',
    providerStaff: input.providerEmailDomain !== undefined && isProviderStaffEmail(email, input.providerEmailDomain),
  });
  return { member: ensured.member, created: ensured.created };
}

/**
 * PUT {api}/{teacherId}/admins/owner/all/{newOwnerId}/{type}: every shared library the teacher owns goes to the
 * new owner, in one transaction (a failure part-way leaves every library where it was). The private My Books
 * stays with the teacher.
 */
export async function reassignAllLibraries(db: Kysely<DB>, actor: Actor, input: ReassignInput): Promise<LibrariesReassigned> {
  const scope = await requireTeacherScope(db, actor, input, 'admin');
  return db.transaction().execute((trx) => moveSharedLibraries(trx, actor, scope, input));
}

/** The reassignment itself, inside the caller's transaction (also the first step of deleting an account). */
export async function moveSharedLibraries(trx: Transaction<DB>, actor: Actor, scope: TeacherScope, input: ReassignInput): Promise<LibrariesReassigned> {
  const { teacher } = scope;
  const target = input.type === 'teacher' ? await teacherTarget(trx, scope, input) : await adminTarget(trx, scope, input);
  const libraries = await repo.lockOwnedLibraries(trx, input.organisationId, teacher.id);
  // My Books is private (spec §3): it is never handed over; it is archived with the account.
  const ids = libraries.filter((l) => !l.is_private).map((l) => l.id);
  const moved = await repo.setOwner(trx, input.organisationId, ids, teacher.id, target.member.id);
  await repo.upsertMemberships(trx, input.organisationId, moved, target.member.id, LIBRARY_ROLE_OWNER);
  await repo.demoteMemberships(trx, input.organisationId, moved, teacher.id, LIBRARY_ROLE_CO_TEACHER);
  await recordAudit(trx, actor, {
    organisationId: input.organisationId,
    action: 'libraries.reassign',
    targetType: 'library',
    targetIds: moved,
    details: { from: teacher.id, to: target.member.id, type: input.type, memberCreated: target.created },
    oldValue: { owner: teacher.email }, newValue: { owner: target.member.email },
  });
  return {
    libraryIds: moved,
    newOwner: { memberId: target.member.id, email: target.member.email, displayName: target.member.display_name, createdMember: target.created },
  };
}

/** POST {api}/{teacherId}/admins/archive/all: closes every unarchived library the teacher owns, in one transaction. */
export async function archiveAllLibraries(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; teacherId: string },
): Promise<LibrariesArchived> {
  const { teacher } = await requireTeacherScope(db, actor, input, 'admin');
  return db.transaction().execute(async (trx) => {
    const { libraryIds, archivedAt } = await repo.archiveOwned(trx, input.organisationId, teacher.id);
    await recordAudit(trx, actor, {
      organisationId: input.organisationId, action: 'libraries.archive', targetType: 'library', targetIds: libraryIds, details: { owner: teacher.id },
      oldValue: { owner: teacher.email, status: 'Open' }, newValue: { owner: teacher.email, status: 'Archived' },
    });
    return { libraryIds, archivedAt: archivedAt.toISOString() };
  });
}
