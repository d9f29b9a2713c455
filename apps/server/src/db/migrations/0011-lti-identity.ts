import { sql, type Kysely } from 'kysely';

/**
 * An LTI identity is the platform's user (the organisation's credentials plus user_id), never an
 * e-mail address (docs/lti.md "Who a launch signs in").
 *
 * - lti_users.contact_email keeps the address a platform sends as contact data. The account a launch creates
 *   has an address of its own under the reserved `lti.invalid` domain, so it never holds (squats) a real
 *   address, and registration, password reset and verification of that address never reach it.
 * - lti_account_rates: the rate at which one set of credentials may create accounts (GCRA: the time the next
 *   account is due; a burst may run ahead of it by the configured tolerance). Per organisation and key.
 * - Links made before this rule by matching an e-mail to an account that has a way in of its own (a password
 *   or a provider) are dropped: such an account is signed in by its owner only. The platform user gets an
 *   account of its own at its next launch.
 * - Accounts made by launches that hold a real address give it up: the address moves to contact_email, the
 *   account and its member rows take a `lti.invalid` address, and the owner of the real address can register it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE lti_users ADD COLUMN contact_email text`.execute(db);
  await sql`COMMENT ON COLUMN lti_users.contact_email IS 'The e-mail the platform sent at the last launch: contact data, never proof of ownership'`.execute(db);
  await sql`
    CREATE TABLE lti_account_rates (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      consumer_key text NOT NULL,
      due_at timestamptz NOT NULL,
      PRIMARY KEY (organisation_id, consumer_key)
    )`.execute(db);

  await sql`
    DELETE FROM lti_users lu
    WHERE EXISTS (SELECT 1 FROM account a WHERE a."userId" = lu.user_id)`.execute(db);

  // Accounts made by launches (linked, with no way in of their own) that hold a real address. The user row
  // changes last: the two statements before it find these accounts by their old address.
  const readdressed = sql`u.email NOT LIKE '%@lti.invalid'
      AND EXISTS (SELECT 1 FROM lti_users l WHERE l.user_id = u.id)
      AND NOT EXISTS (SELECT 1 FROM account a WHERE a."userId" = u.id)`;
  const newEmail = sql`'lti-' || md5(u.id) || '@lti.invalid'`;
  await sql`UPDATE lti_users lu SET contact_email = u.email FROM "user" u WHERE lu.user_id = u.id AND ${readdressed}`.execute(db);
  await sql`UPDATE members m SET email = ${newEmail}, updated_at = now() FROM "user" u WHERE m.user_id = u.id AND m.email = u.email AND ${readdressed}`.execute(db);
  await sql`UPDATE "user" u SET email = ${newEmail}, "emailVerified" = false, "updatedAt" = now() WHERE ${readdressed}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS lti_account_rates`.execute(db);
  await sql`ALTER TABLE lti_users DROP COLUMN IF EXISTS contact_email`.execute(db);
}
