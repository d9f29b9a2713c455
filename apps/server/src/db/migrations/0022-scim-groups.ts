import { sql, type Kysely } from 'kysely';

/**
 * SCIM Groups (docs/provisioning.md).
 *
 * - scim_groups: the groups an identity provider pushes to an organisation. displayName is unique within the
 *   organisation, compared without case, as Entra ID and Okta look a group up by it.
 * - scim_group_members: which provisioned users are in which group. A member row goes with its user (DELETE /Users)
 *   and with its group.
 * - scim_admin_grants: the admins a group of admins made (one per provisioned user, with the address granted), so a
 *   user leaving the group loses only what the group gave: an admin added on the Admin screen stays one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE scim_groups (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      id text NOT NULL,
      display_name text NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 256),
      external_id text CHECK (external_id IS NULL OR char_length(external_id) BETWEEN 1 AND 256),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, id)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX scim_groups_display_name_idx ON scim_groups (organisation_id, lower(display_name))`.execute(db);
  await sql`COMMENT ON TABLE scim_groups IS 'Groups an identity provider manages over SCIM; one named as the admins group makes its members admins'`.execute(db);

  await sql`
    CREATE TABLE scim_group_members (
      organisation_id text NOT NULL,
      group_id text NOT NULL,
      member_id text NOT NULL,
      PRIMARY KEY (organisation_id, group_id, member_id),
      FOREIGN KEY (organisation_id, group_id) REFERENCES scim_groups(organisation_id, id) ON DELETE CASCADE,
      FOREIGN KEY (organisation_id, member_id) REFERENCES scim_users(organisation_id, member_id) ON DELETE CASCADE
    )`.execute(db);
  await sql`CREATE INDEX scim_group_members_member_idx ON scim_group_members (organisation_id, member_id)`.execute(db);

  await sql`
    CREATE TABLE scim_admin_grants (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      member_id text NOT NULL,
      email text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, member_id)
    )`.execute(db);
  await sql`COMMENT ON TABLE scim_admin_grants IS 'Admins made by a SCIM group of admins: removed again when the user leaves it'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS scim_admin_grants`.execute(db);
  await sql`DROP TABLE IF EXISTS scim_group_members`.execute(db);
  await sql`DROP TABLE IF EXISTS scim_groups`.execute(db);
}
