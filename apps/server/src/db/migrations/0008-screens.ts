import { sql, type Kysely } from 'kysely';

/**
 * Issue 15 (the screens' defects):
 * - members_pending_email_idx: a pending member is found by e-mail when that address signs up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX members_pending_email_idx ON members (email) WHERE pending`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS members_pending_email_idx`.execute(db);
}
