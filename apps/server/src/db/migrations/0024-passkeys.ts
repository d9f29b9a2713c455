import { sql, type Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn) as a second step and as a sign-in of their own (docs/identity.md "Passkeys"): each person's
 * registered credentials (public key and signature counter only; the private key never leaves the authenticator), and
 * the challenges the server handed out, each usable once and for a few minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE two_step_passkeys (
      credential_id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
      name text NOT NULL,
      public_key bytea NOT NULL,
      counter bigint NOT NULL DEFAULT 0,
      transports text[] NOT NULL DEFAULT '{}',
      backed_up boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX two_step_passkeys_user ON two_step_passkeys (user_id)`.execute(db);
  await sql`COMMENT ON TABLE two_step_passkeys IS 'WebAuthn credentials (passkeys): the credential id as the authenticator gives it (base64url), its COSE public key and the last signature counter seen'`.execute(db);
  await sql`
    CREATE TABLE two_step_passkey_challenges (
      challenge text PRIMARY KEY,
      purpose text NOT NULL CHECK (purpose IN ('register', 'second-step', 'sign-in')),
      user_id text REFERENCES "user"(id) ON DELETE CASCADE,
      session_id text,
      expires_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX two_step_passkey_challenges_expiry ON two_step_passkey_challenges (expires_at)`.execute(db);
  await sql`COMMENT ON TABLE two_step_passkey_challenges IS 'WebAuthn challenges handed out and not used yet: deleted when used, refused after expires_at'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE two_step_passkey_challenges`.execute(db);
  await sql`DROP TABLE two_step_passkeys`.execute(db);
}
