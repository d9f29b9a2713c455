import { sql, type Kysely } from 'kysely';

/**
 * 2-step verification (docs/identity.md "2-step verification"): a person's authenticator-app secret (encrypted,
 * never shown again after enrolment), their recovery codes (hashes only), the devices they chose to trust, and on
 * every session the method that completed its second step. A session of an enrolled person without that method
 * opens nothing but the second step itself (access/session-user.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE two_step_factors (
      user_id text PRIMARY KEY REFERENCES "user"(id) ON DELETE CASCADE,
      totp_secret text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      confirmed_at timestamptz,
      last_totp_step bigint
    )`.execute(db);
  await sql`COMMENT ON TABLE two_step_factors IS 'Authenticator-app (TOTP) secrets, encrypted with the server secret; confirmed_at null while enrolment awaits its first code; last_totp_step refuses a code used before (RFC 6238 section 5.2)'`.execute(db);
  await sql`
    CREATE TABLE two_step_recovery_codes (
      user_id text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
      code_hash bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      used_at timestamptz,
      PRIMARY KEY (user_id, code_hash)
    )`.execute(db);
  await sql`COMMENT ON TABLE two_step_recovery_codes IS 'Single-use recovery codes as SHA-256 hashes; regenerating replaces them all'`.execute(db);
  await sql`
    CREATE TABLE two_step_trusted_devices (
      token_hash bytea PRIMARY KEY,
      user_id text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX two_step_trusted_devices_user ON two_step_trusted_devices (user_id)`.execute(db);
  await sql`COMMENT ON TABLE two_step_trusted_devices IS 'Browsers a person ticked Trust this device on: the SHA-256 of the cookie value, at most 30 days'`.execute(db);
  await sql`ALTER TABLE session ADD COLUMN "twoStepMethod" text`.execute(db);
  await sql`COMMENT ON COLUMN session."twoStepMethod" IS 'How the second step of this session was passed (totp, recovery_code, passkey, trusted_device, enrolment); null when none was needed or it is still pending'`.execute(db);
  await sql`ALTER TABLE organisations ADD COLUMN require_two_step_admins boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE organisations DROP COLUMN require_two_step_admins`.execute(db);
  await sql`ALTER TABLE session DROP COLUMN "twoStepMethod"`.execute(db);
  await sql`DROP TABLE two_step_trusted_devices`.execute(db);
  await sql`DROP TABLE two_step_recovery_codes`.execute(db);
  await sql`DROP TABLE two_step_factors`.execute(db);
}
