import type { Library } from '@quire/core';
import type { TeacherLibraryRow } from './libraries.repository.js';

/** A library as the API shows it (spec §3 Library, librarySchema of @quire/core), from one teacher's point of view. */
export function presentLibrary(row: TeacherLibraryRow, teacherId: string): Library {
  return {
    id: row.id,
    name: row.name,
    bookCount: Number(row.book_count),
    userCount: Number(row.user_count),
    role: Number(row.role),
    isPrivate: row.is_private,
    isOwner: row.owner_member_id === teacherId,
    ownerId: row.owner_member_id,
    joined: Boolean(row.joined),
    archivedAt: row.archived_at ? new Date(row.archived_at).toISOString() : null,
  };
}
