import type { TeacherLibraryRow } from './libraries.repository.js';

/** A library as the API shows it (spec §3 Library), from one teacher's point of view. */
export interface LibraryView {
  id: string;
  name: string;
  bookCount: number;
  /** Authors: library members below Read-Only. */
  userCount: number;
  /** The teacher's numeric level in the library. */
  role: number;
  isPrivate: boolean;
  isOwner: boolean;
  ownerId: string;
  /** The acting admin is already a member (a visit asks no reason). */
  joined: boolean;
  archivedAt: string | null;
}

export function presentLibrary(row: TeacherLibraryRow, teacherId: string): LibraryView {
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
