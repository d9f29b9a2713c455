import { sql, type Kysely } from 'kysely';

/**
 * Automatic provisioning over SCIM 2.0 (docs/provisioning.md).
 *
 * - scim_tokens: bearer tokens an identity provider sends, bound to one organisation. Only the SHA-256 of a token is
 *   kept (the token itself is shown once); `hint` is its last four characters, so an admin can tell tokens apart.
 *   Revoking sets revoked_at (the row stays for the request log). Looked up by hash on every SCIM request.
 * - scim_users: the members a provider manages, with the attributes SCIM names that the members table has no column
 *   for (userName, externalId, name parts, the enterprise extension's employeeNumber and department). The SCIM
 *   resource id is the member's id; the row goes with the member.
 * - scim_requests: the organisation's recent SCIM requests for the console (the last 50 are shown; older rows are
 *   pruned as new ones come).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE scim_tokens (
      id text NOT NULL,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      token_hash bytea NOT NULL,
      hint text NOT NULL,
      created_by_email text,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      PRIMARY KEY (organisation_id, id)
    )`.execute(db);
  await sql`CREATE INDEX scim_tokens_hash_idx ON scim_tokens (token_hash)`.execute(db);
  await sql`COMMENT ON TABLE scim_tokens IS 'SCIM bearer tokens: SHA-256 of the token only, one organisation each, revocable'`.execute(db);

  await sql`
    CREATE TABLE scim_users (
      organisation_id text NOT NULL,
      member_id text NOT NULL,
      user_name text NOT NULL CHECK (char_length(user_name) BETWEEN 1 AND 256),
      external_id text CHECK (external_id IS NULL OR char_length(external_id) BETWEEN 1 AND 256),
      attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, member_id),
      FOREIGN KEY (organisation_id, member_id) REFERENCES members(organisation_id, id) ON DELETE CASCADE
    )`.execute(db);
  // userName is unique within an organisation, compared without case (RFC 7643: caseExact false).
  await sql`CREATE UNIQUE INDEX scim_users_user_name_idx ON scim_users (organisation_id, lower(user_name))`.execute(db);
  await sql`CREATE INDEX scim_users_external_id_idx ON scim_users (organisation_id, external_id)`.execute(db);
  await sql`CREATE INDEX scim_users_created_idx ON scim_users (organisation_id, created_at, member_id)`.execute(db);
  await sql`COMMENT ON TABLE scim_users IS 'Members an identity provider manages over SCIM, with the SCIM attributes members has no column for'`.execute(db);

  await sql`
    CREATE TABLE scim_requests (
      id bigint GENERATED ALWAYS AS IDENTITY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      token_id text,
      at timestamptz NOT NULL DEFAULT now(),
      method text NOT NULL,
      operation text NOT NULL,
      subject text,
      status integer NOT NULL,
      outcome text NOT NULL,
      PRIMARY KEY (organisation_id, id)
    )`.execute(db);
  await sql`COMMENT ON TABLE scim_requests IS 'Recent SCIM requests per organisation (time, operation, user, outcome) for the console'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS scim_requests`.execute(db);
  await sql`DROP TABLE IF EXISTS scim_users`.execute(db);
  await sql`DROP TABLE IF EXISTS scim_tokens`.execute(db);
}
