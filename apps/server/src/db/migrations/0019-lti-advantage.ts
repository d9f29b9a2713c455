import { sql, type Kysely } from 'kysely';

/**
 * LTI 1.3 (docs/lti.md "LTI 1.3"): the learning platforms an organisation registers (several per organisation), and
 * the tool's own signing keys. A platform is known by its issuer and the client id it gave the tool; the deployment
 * ids list where in the platform the tool is installed. The tool's keys are RSA key pairs: the private key encrypted
 * like the LTI 1.1 secrets (AES-256-GCM under LTI_ENCRYPTION_KEY), the public key published at the JWKS URL, a retired
 * key kept published for a while so what it signed still verifies. LTI 1.3 nonces go into lti_nonces beside 1.1's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE lti_platforms (
      id text PRIMARY KEY,
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      name text NOT NULL,
      issuer text NOT NULL,
      client_id text NOT NULL,
      deployment_ids text[] NOT NULL,
      auth_endpoint text NOT NULL,
      token_endpoint text NOT NULL,
      jwks_url text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (issuer, client_id)
    )`.execute(db);
  await sql`CREATE INDEX lti_platforms_organisation_idx ON lti_platforms (organisation_id)`.execute(db);
  await sql`
    CREATE TABLE lti_tool_keys (
      kid text PRIMARY KEY,
      private_key text NOT NULL,
      public_jwk jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      retired_at timestamptz
    )`.execute(db);
  await sql`COMMENT ON COLUMN lti_tool_keys.private_key IS 'Encrypted: enc:v1:<iv>:<tag>:<ciphertext> (AES-256-GCM, LTI_ENCRYPTION_KEY), PKCS #8 PEM'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS lti_tool_keys`.execute(db);
  await sql`DROP TABLE IF EXISTS lti_platforms`.execute(db);
}
