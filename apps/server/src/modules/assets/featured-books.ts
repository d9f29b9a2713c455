import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { countFeaturedBooks, insertFeaturedBooks } from './assets.repository.js';
import { renderCover, type CoverShape } from './images.js';

/** The reader-site user whose fixed library holds the featured example books (the cover call's {userId}). */
const FEATURED_OWNER_ID = 'quire-examples';

/** The nine example books of Teacher Resources (spec §9), three of each shape. */
const FEATURED_BOOKS: ReadonlyArray<{ bookId: string; title: string; shape: CoverShape }> = [
  { bookId: 'example-all-about-me', title: 'All About Me', shape: 'portrait' },
  { bookId: 'example-science-lab-report', title: 'Science Lab Report', shape: 'landscape' },
  { bookId: 'example-poetry-anthology', title: 'Class Poetry Anthology', shape: 'square' },
  { bookId: 'example-field-trip-journal', title: 'Field Trip Journal', shape: 'landscape' },
  { bookId: 'example-math-word-problems', title: 'Math Word Problems', shape: 'portrait' },
  { bookId: 'example-comic-adventure', title: 'My Comic Adventure', shape: 'square' },
  { bookId: 'example-history-timeline', title: 'Ancient History Timeline', shape: 'landscape' },
  { bookId: 'example-language-flashcards', title: 'Spanish Flashcards', shape: 'square' },
  { bookId: 'example-digital-portfolio', title: 'My Digital Portfolio', shape: 'portrait' },
];

/** One seeding per database (tests open several in one process). */
const seeding = new WeakMap<object, Promise<void>>();

/**
 * Makes sure the featured books and their covers exist (generated once, stored in the database so every
 * server copy serves the same images). A provider replaces rows of featured_books to feature other books.
 */
export function ensureFeaturedBooks(db: Kysely<DB>): Promise<void> {
  let done = seeding.get(db);
  if (!done) {
    done = (async () => {
      if ((await countFeaturedBooks(db)) > 0) return;
      const rows = [];
      for (const [position, book] of FEATURED_BOOKS.entries()) {
        rows.push({
          book_id: book.bookId, owner_user_id: FEATURED_OWNER_ID, title: book.title, shape: book.shape, position,
          cover: await renderCover(book.title, book.shape), cover_type: 'image/png',
        });
      }
      await insertFeaturedBooks(db, rows);
    })().catch((error: unknown) => {
      seeding.delete(db);
      throw error;
    });
    seeding.set(db, done);
  }
  return done;
}
