
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { requireOrgAccess, type OrgAccess } from '../access/org-access.js';
import { findMember, type TeacherMember } from './libraries.repository.js';

export interface TeacherScope {
  access: OrgAccess;
  teacher: TeacherMember;
}

/**
 * Every teacher call starts here: the actor must have access to the named organisation (403 otherwise),
 * changes need an admin (requireOrgAccess, which also reads the organisation once for the request), and the teacher must be a member of that organisation (404 otherwise, so another
 * organisation's ids are never confirmed).
 */
export async function requireTeacherScope(
  db: Kysely<DB>,
  actor: Actor,
  input: { organisationId: string; teacherId: string },
  need: 'read' | 'admin',
): Promise<TeacherScope> {
  const access = await requireOrgAccess(db, actor, input.organisationId, need, {
    refusal: () => appError('not_authorised_user'),
  });
  const teacher = await findMember(db, input.organisationId, input.teacherId);
  if (!teacher) throw appError('teacher_not_found');
  return { access, teacher };
}
