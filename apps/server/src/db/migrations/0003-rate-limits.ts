import { sql, type Kysely } from 'kysely';

/**
 * Rate-limit counters of the sign-in routes, shared by every copy of the server (docs/identity.md,
 * "Rate limits"): one row a route, client address and e-mail, for the current one-minute window.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      hits integer NOT NULL,
      window_start timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS rate_limits`.execute(db);
}
