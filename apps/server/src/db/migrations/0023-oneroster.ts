import { sql, type Kysely } from 'kysely';

/**
 * Rostering from a student information system: OneRoster CSV imports (docs/rostering.md).
 *
 * - roster_imports: one per uploaded file, in the organisation whose Rostering page took it: its options, the
 *   preview's counts and first rows, the apply job's progress (done of total) and state. The history lists them.
 * - roster_import_people: the people of a file as read (one row each, in file order), kept from the preview until the
 *   apply job has run: the job works from them, so it survives a restart without the file. A person whose row has an
 *   error is kept with has_error, so a full import leaves them as they are instead of retiring them.
 * - roster_import_errors: the file's errors (file, line, column, reason), for the preview and the error CSV.
 * - roster_org_links: which OneRoster org (sourcedId) is which organisation (the one importing, or one under it).
 * - roster_members: the members an import manages, keyed on the OneRoster sourcedId: an e-mail changed in the
 *   student information system updates the member, and only these members are ever retired by an import (a teacher
 *   added by hand never is). console_admin records an admin the import made, so only that is taken back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE roster_imports (
      id text NOT NULL,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      status text NOT NULL CHECK (status IN ('preview', 'queued', 'applying', 'applied', 'failed', 'cancelled')),
      file_name text NOT NULL,
      version text NOT NULL,
      mode text NOT NULL CHECK (mode IN ('bulk', 'delta')),
      options jsonb NOT NULL,
      counts jsonb NOT NULL,
      preview jsonb NOT NULL,
      orgs jsonb NOT NULL,
      created_by_user_id text,
      created_by_email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      applied_at timestamptz,
      done integer NOT NULL DEFAULT 0,
      total integer NOT NULL DEFAULT 0,
      PRIMARY KEY (organisation_id, id)
    )`.execute(db);
  await sql`CREATE INDEX roster_imports_created_idx ON roster_imports (organisation_id, created_at DESC)`.execute(db);
  await sql`COMMENT ON TABLE roster_imports IS 'OneRoster CSV imports: options, preview, progress of the apply job, history'`.execute(db);

  await sql`
    CREATE TABLE roster_import_people (
      organisation_id text NOT NULL,
      import_id text NOT NULL,
      n integer NOT NULL,
      line integer NOT NULL,
      sourced_id text NOT NULL,
      active boolean NOT NULL,
      email text NOT NULL,
      given_name text NOT NULL,
      family_name text NOT NULL,
      role text NOT NULL,
      org_sourced_ids text[] NOT NULL,
      has_error boolean NOT NULL DEFAULT false,
      PRIMARY KEY (organisation_id, import_id, n),
      FOREIGN KEY (organisation_id, import_id) REFERENCES roster_imports(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);
  await sql`COMMENT ON TABLE roster_import_people IS 'The people of an import as read from its file, until it is applied or cancelled'`.execute(db);

  await sql`
    CREATE TABLE roster_import_errors (
      organisation_id text NOT NULL,
      import_id text NOT NULL,
      n integer NOT NULL,
      file text NOT NULL,
      line integer,
      column_name text,
      reason text NOT NULL,
      PRIMARY KEY (organisation_id, import_id, n),
      FOREIGN KEY (organisation_id, import_id) REFERENCES roster_imports(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);

  await sql`
    CREATE TABLE roster_org_links (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      sourced_id text NOT NULL,
      target_organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      PRIMARY KEY (organisation_id, sourced_id)
    )`.execute(db);
  await sql`COMMENT ON TABLE roster_org_links IS 'OneRoster org sourcedIds matched to the importing organisation or one under it'`.execute(db);

  await sql`
    CREATE TABLE roster_members (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      sourced_id text NOT NULL,
      member_organisation_id text NOT NULL,
      member_id text NOT NULL,
      role text NOT NULL,
      console_admin boolean NOT NULL DEFAULT false,
      import_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, sourced_id),
      FOREIGN KEY (member_organisation_id, member_id) REFERENCES members(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);
  // A member is managed by one sourcedId of one import source at most.
  await sql`CREATE UNIQUE INDEX roster_members_member_idx ON roster_members (member_organisation_id, member_id)`.execute(db);
  await sql`COMMENT ON TABLE roster_members IS 'Members a OneRoster import manages, by sourcedId; only these are retired by an import'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS roster_members`.execute(db);
  await sql`DROP TABLE IF EXISTS roster_org_links`.execute(db);
  await sql`DROP TABLE IF EXISTS roster_import_errors`.execute(db);
  await sql`DROP TABLE IF EXISTS roster_import_people`.execute(db);
  await sql`DROP TABLE IF EXISTS roster_imports`.execute(db);
}
