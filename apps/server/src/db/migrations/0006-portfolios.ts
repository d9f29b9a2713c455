import { sql, type Kysely } from 'kysely';

/**
 * Student portfolios (docs/portfolios.md), the export files built from them, and the featured example
 * books of Teacher Resources (docs/resources.md).
 *
 * - students: one row a student of an organisation; portfolio_items: what a student published to their
 *   portfolio (a book, its pages, when, and the teacher and class it came from).
 * - portfolio_exports becomes a header row with a status; the CSV itself lives in portfolio_export_chunks
 *   (one bytea row a ~1 MB piece), so no export, however large, is ever held in memory. A build writes its
 *   chunks and flips its status to 'ready' in one transaction: a failed build leaves nothing visible.
 * - featured_books: the example books shown on Teacher Resources, with their cover images.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE students (
      id text PRIMARY KEY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      student_number text,
      display_name text NOT NULL,
      email text CHECK (email IS NULL OR email = lower(email)),
      grade text,
      school_year text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organisation_id, id)
    )`.execute(db);
  await sql`CREATE INDEX students_org_idx ON students (organisation_id, id)`.execute(db);
  await sql`
    CREATE TABLE portfolio_items (
      id text PRIMARY KEY,
      organisation_id text NOT NULL,
      student_id text NOT NULL,
      book_id text,
      book_title text NOT NULL,
      page_count integer NOT NULL DEFAULT 0 CHECK (page_count >= 0),
      created_at timestamptz NOT NULL,
      published_at timestamptz NOT NULL,
      teacher_member_id text,
      teacher_name text,
      teacher_email text,
      class_name text,
      book_url text,
      FOREIGN KEY (organisation_id, student_id) REFERENCES students(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX portfolio_items_student_idx ON portfolio_items (organisation_id, student_id, published_at, id)`.execute(db);

  // Exports: the old one-text-column form cannot hold a district; content moves to chunks.
  await sql`DELETE FROM portfolio_exports`.execute(db);
  await sql`ALTER TABLE portfolio_exports DROP COLUMN content`.execute(db);
  await sql`ALTER TABLE portfolio_exports ADD COLUMN status text NOT NULL DEFAULT 'building' CHECK (status IN ('building', 'ready'))`.execute(db);
  await sql`ALTER TABLE portfolio_exports ADD COLUMN byte_size bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE portfolio_exports ADD COLUMN chunk_count integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE portfolio_exports ADD CONSTRAINT portfolio_exports_org_id_key UNIQUE (organisation_id, id)`.execute(db);
  await sql`
    CREATE TABLE portfolio_export_chunks (
      organisation_id text NOT NULL,
      export_id text NOT NULL,
      seq integer NOT NULL,
      data bytea NOT NULL,
      PRIMARY KEY (export_id, seq),
      FOREIGN KEY (organisation_id, export_id) REFERENCES portfolio_exports(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);

  await sql`
    CREATE TABLE featured_books (
      book_id text PRIMARY KEY,
      owner_user_id text NOT NULL,
      title text NOT NULL,
      shape text NOT NULL CHECK (shape IN ('landscape', 'square', 'portrait')),
      position integer NOT NULL,
      cover bytea,
      cover_type text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS featured_books`.execute(db);
  await sql`DROP TABLE IF EXISTS portfolio_export_chunks`.execute(db);
  await sql`DELETE FROM portfolio_exports`.execute(db);
  await sql`ALTER TABLE portfolio_exports DROP CONSTRAINT IF EXISTS portfolio_exports_org_id_key`.execute(db);
  await sql`ALTER TABLE portfolio_exports DROP COLUMN IF EXISTS chunk_count, DROP COLUMN IF EXISTS byte_size, DROP COLUMN IF EXISTS status`.execute(db);
  await sql`ALTER TABLE portfolio_exports ADD COLUMN content text NOT NULL DEFAULT ''`.execute(db);
  await sql`DROP TABLE IF EXISTS portfolio_items`.execute(db);
  await sql`DROP TABLE IF EXISTS students`.execute(db);
}
