import { Avatar } from '@mantine/core';
import { AVATAR_SIZE } from '@quire/core';
import { serviceUrl } from '../../../lib/api/index.js';
import type { TeacherRef } from '../model/teacher-ref.js';

/** Up to two initials of the name (or of the e-mail's local part). */
function initialsOf(teacher: Pick<TeacherRef, 'displayName' | 'email'>): string {
  const source = teacher.displayName.trim() || teacher.email.split('@')[0] || '?';
  const words = source.split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0]?.[0] ?? ''}${words[words.length - 1]?.[0] ?? ''}` : source.slice(0, 2);
  return letters.toUpperCase();
}

/** GET {assets}/{userId}/avatar; a 404 (no picture, or no account yet) shows the initials. */
export function TeacherAvatar({ teacher, size = AVATAR_SIZE * 2 }: { teacher: TeacherRef; size?: number }) {
  const src = teacher.userId ? serviceUrl('assets', '', teacher.userId, 'avatar') : null;
  return (
    <Avatar src={src} size={size} radius="xl" color="quire" alt="" aria-hidden>
      {initialsOf(teacher)}
    </Avatar>
  );
}
