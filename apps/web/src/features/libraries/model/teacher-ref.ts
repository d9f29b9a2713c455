import type { Member, MemberLicense } from '@quire/core';

/**
 * What the teacher library screens need to know about a teacher: a member of the Teachers list fits it as
 * it is; `id` is always the member id (docs/libraries-api.md).
 */
export type TeacherRef = Pick<Member, 'id' | 'userId' | 'email' | 'displayName' | 'role' | 'pending'> & {
  /** The teacher's licence; the Manage License step is offered only when there is one. */
  license?: Pick<MemberLicense, 'id' | 'name'> | null;
};

/** The name to show: the display name, else the e-mail. */
export function teacherName(teacher: Pick<TeacherRef, 'displayName' | 'email'>): string {
  return teacher.displayName.trim() || teacher.email;
}
