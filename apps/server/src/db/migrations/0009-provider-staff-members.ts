import { sql, type Kysely } from 'kysely';

/**
 * A provider-staff admin who visits a library for support becomes a member of the organisation (the
 * library's memberships need one) but is not one of the school's teachers. The flag keeps such members out of
 * the Teachers lists, their counts and the CSV export, out of licence seats and out of a library's authors.
 * Rows an earlier version made are marked at start (modules/libraries/libraries.plugin.ts): the provider's
 * e-mail domain is configuration, which a migration does not read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE members ADD COLUMN is_provider_staff boolean NOT NULL DEFAULT false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE members DROP COLUMN IF EXISTS is_provider_staff`.execute(db);
}
