import { sql, type Kysely } from 'kysely';

/**
 * LTI 1.1 launches (docs/lti.md): the nonces seen (shared by every server copy, so a replay is
 * refused whichever copy it reaches) and the link from a learning platform's user id to a user.
 * lti_credentials.consumer_secret now holds the secret encrypted (`enc:v1:…`, AES-256-GCM with
 * LTI_ENCRYPTION_KEY); a plaintext value left by an earlier version is encrypted at start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`COMMENT ON COLUMN lti_credentials.consumer_secret IS 'Encrypted: enc:v1:<iv>:<tag>:<ciphertext> (AES-256-GCM, LTI_ENCRYPTION_KEY)'`.execute(db);
  await sql`
    CREATE TABLE lti_nonces (
      consumer_key text NOT NULL,
      nonce text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (consumer_key, nonce)
    )`.execute(db);
  await sql`CREATE INDEX lti_nonces_created_at_idx ON lti_nonces (created_at)`.execute(db);
  await sql`
    CREATE TABLE lti_users (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      lti_user_id text NOT NULL,
      user_id text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_launch_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organisation_id, lti_user_id)
    )`.execute(db);
  await sql`CREATE INDEX lti_users_user_idx ON lti_users (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS lti_users`.execute(db);
  await sql`DROP TABLE IF EXISTS lti_nonces`.execute(db);
}
