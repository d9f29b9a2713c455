/** Numeric roles of spec §4 and §9. */

/** Organisation member roles. */
export const ROLE_PENDING_TEACHER = -600;
export const ROLE_LIBRARY_MANAGER = 400;
export const ROLE_TEACHER = 600;
type MemberRole = typeof ROLE_PENDING_TEACHER | typeof ROLE_LIBRARY_MANAGER | typeof ROLE_TEACHER;

/** Toggling library manager switches between 400 and 600. */
export function toggledLibraryManagerRole(role: number): MemberRole {
  return role === ROLE_LIBRARY_MANAGER ? ROLE_TEACHER : ROLE_LIBRARY_MANAGER;
}

/**
 * Library roles: a lower number is more rights. The spec shows the constants 500, 600 and 800 and the
 * labels Owner, Co-Teacher, Teacher, Student, Read-Only; Owner (100) and Read-Only (900) are ours.
 */
export const LIBRARY_ROLE_OWNER = 100;
export const LIBRARY_ROLE_CO_TEACHER = 500;
export const LIBRARY_ROLE_TEACHER = 600;
export const LIBRARY_ROLE_STUDENT = 800;
export const LIBRARY_ROLE_READ_ONLY = 900;

export type LibraryRoleLabel = 'Owner' | 'Co-Teacher' | 'Teacher' | 'Student' | 'Read-Only';

/** The label of a library role level; a level between two named ones takes the label of the next weaker one. */
export function libraryRoleLabel(role: number): LibraryRoleLabel {
  if (role <= LIBRARY_ROLE_OWNER) return 'Owner';
  if (role <= LIBRARY_ROLE_CO_TEACHER) return 'Co-Teacher';
  if (role <= LIBRARY_ROLE_TEACHER) return 'Teacher';
  if (role <= LIBRARY_ROLE_STUDENT) return 'Student';
  return 'Read-Only';
}

/**
 * Visiting a teacher's library (§6): allowed up to the Teacher level, disabled for a Student's library,
 * hidden from Read-Only up; the private My Books library is never visited and shows 'Private'.
 */
const VISIT_MAX_ROLE = LIBRARY_ROLE_TEACHER;
const VISIT_HIDDEN_FROM_ROLE = LIBRARY_ROLE_READ_ONLY;
export type VisitAction = 'visit' | 'disabled' | 'hidden' | 'private';

export function libraryVisitAction(library: { role: number; isPrivate: boolean }): VisitAction {
  if (library.isPrivate) return 'private';
  if (library.role >= VISIT_HIDDEN_FROM_ROLE) return 'hidden';
  return library.role <= VISIT_MAX_ROLE ? 'visit' : 'disabled';
}

/** The teacher library viewer's tabs. */
export const LIBRARY_FILTER_ALL = 0;
export const LIBRARY_FILTER_ARCHIVED = 1;
export type LibraryFilter = typeof LIBRARY_FILTER_ALL | typeof LIBRARY_FILTER_ARCHIVED;
