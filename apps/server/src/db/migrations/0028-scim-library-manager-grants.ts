import { sql, type Kysely } from 'kysely';

/**
 * Library managers through a SCIM group (docs/provisioning.md).
 *
 * - scim_library_manager_grants: the provisioned users a group of library managers holds the role for, one row per
 *   user. A user who has signed up was made a library manager when the row was written; one still pending (invited,
 *   not signed up) has the row only, and signing up gives the role then. Leaving the group drops the row and takes back
 *   what it gave; a teacher made library manager on the Teachers screen before joining has no row and keeps the role.
 *   Not tied to scim_users: a user deleted over SCIM must still be found here so the role it was given is taken back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE scim_library_manager_grants (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      member_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, member_id)
    )`.execute(db);
  await sql`COMMENT ON TABLE scim_library_manager_grants IS 'Library managers held by a SCIM group of library managers (pending users get the role at sign-up)'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS scim_library_manager_grants`.execute(db);
}
