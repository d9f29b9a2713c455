import { sql, type Kysely } from 'kysely';

/**
 * The Teachers list sorted by name (and the CSV export's keyset batches in that order) without sorting
 * the whole organisation per request: measured at 100,000 teachers in docs/performance-log.md ("Teachers").
 * The predicate is the Active list's filter, so the index holds only the rows the list can show.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE INDEX IF NOT EXISTS members_teachers_name_idx
    ON members (organisation_id, lower(display_name), email)
    WHERE revoked_at IS NULL AND NOT is_student`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS members_teachers_name_idx`.execute(db);
}
