import { LIBRARY_FILTER_ALL, LIBRARY_ROLE_OWNER, libraryRoleLabel, libraryVisitAction, type LibraryFilter, type VisitAction } from '@quire/core';
import type { BookCounts, Library, TeacherLibraries } from '@quire/core';

/** The teacher's private library, which the lists leave out (docs/libraries-api.md). */
const MY_BOOKS_NAME = 'My Books';
const MY_BOOKS_ROW_ID = 'my-books';

/** One row of the viewer's table. */
export interface LibraryRow {
  id: string;
  name: string;
  roleLabel: string;
  /** null while the book counts load (My Books only). */
  bookCount: number | null;
  authorCount: number | null;
  visit: VisitAction;
  library: Library | null;
}

function toRow(library: Library): LibraryRow {
  return {
    id: library.id,
    name: library.name,
    roleLabel: libraryRoleLabel(library.role),
    bookCount: library.bookCount,
    authorCount: library.userCount,
    visit: libraryVisitAction(library),
    library,
  };
}

/** My Books: owned by the teacher, its count from book-counts, never visitable ('Private'). */
function myBooksRow(counts: BookCounts | undefined): LibraryRow {
  return {
    id: MY_BOOKS_ROW_ID,
    name: MY_BOOKS_NAME,
    roleLabel: libraryRoleLabel(LIBRARY_ROLE_OWNER),
    bookCount: counts ? counts.private : null,
    authorCount: 1,
    visit: 'private',
    library: null,
  };
}

/**
 * The rows of a tab (spec §3): All (0) is My Books first, then the unarchived libraries; Archived (1)
 * is the archived ones. My Books is never in the server's lists, so it is never shown twice.
 */
export function libraryRows(filter: LibraryFilter, libraries: TeacherLibraries, counts: BookCounts | undefined): LibraryRow[] {
  if (filter !== LIBRARY_FILTER_ALL) return libraries.archived.map(toRow);
  return [myBooksRow(counts), ...libraries.unarchived.map(toRow)];
}

/** The header counts: Libraries (All total, My Books included) and Books (book-counts total). */
export function libraryTotals(libraries: TeacherLibraries | undefined, counts: BookCounts | undefined): { libraries: number | null; books: number | null } {
  return {
    libraries: libraries ? libraries.unarchived.length + 1 : null,
    books: counts ? counts.total : null,
  };
}
