import { sql, type Kysely } from 'kysely';

/**
 * What the screens' defects needed:
 * - members_pending_email_idx: a pending member is found by e-mail when that address signs up.
 * - idempotency_keys: the Idempotency-Key of each action that writes, per user, remembered for a short window so
 *   an identical replay (a double click, a retried request) is refused (modules/access/idempotency.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX members_pending_email_idx ON members (email) WHERE pending`.execute(db);
  await sql`
    CREATE TABLE idempotency_keys (
      actor_user_id text NOT NULL,
      key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (actor_user_id, key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS idempotency_keys`.execute(db);
  await sql`DROP INDEX IF EXISTS members_pending_email_idx`.execute(db);
}
