/**
 * What the teacher library screens need to know about a teacher. The Teachers list's members fit it
 * as they are; `id` is always the member id (docs/libraries-api.md).
 */
export interface TeacherRef {
  id: string;
  userId: string | null;
  email: string;
  displayName: string;
  /** Organisation role: -600 pending teacher, 400 library manager, 600 teacher. */
  role: number;
  pending: boolean;
  /** The teacher's licence; the Manage License step is offered only when there is one. */
  license?: { id: string; name: string } | null;
}

/** The name to show: the display name, else the e-mail. */
export function teacherName(teacher: Pick<TeacherRef, 'displayName' | 'email'>): string {
  return teacher.displayName.trim() || teacher.email;
}
