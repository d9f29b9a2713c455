import { sql, type Kysely } from 'kysely';

/**
 * A district's Teachers list read school by school in every order the console offers (docs/districts.md, "District
 * views: Teachers"): a page takes the first rows of each school in the page's order, which needs each school's teachers
 * kept in that order by an index, as members_active_email_idx and members_teachers_name_idx keep the e-mail and name
 * orders. Without them a district's page in these orders read and sorted every teacher of the district. The predicates
 * are the tab's filter, so each index holds only the rows its tab can show.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Inactive tab, Name.
  await sql`
    CREATE INDEX IF NOT EXISTS members_removed_name_idx
    ON members (organisation_id, lower(display_name), email)
    WHERE revoked_at IS NOT NULL AND NOT is_student`.execute(db);
  // Inactive tab, Removed: the list's own sort expression, so the index gives its order.
  await sql`
    CREATE INDEX IF NOT EXISTS members_removed_at_idx
    ON members (organisation_id, (coalesce(revoked_at, 'epoch'::timestamptz)), email)
    WHERE revoked_at IS NOT NULL AND NOT is_student`.execute(db);
  // Active tab, Signed up.
  await sql`
    CREATE INDEX IF NOT EXISTS members_signed_up_idx
    ON members (organisation_id, (NOT pending), email)
    WHERE revoked_at IS NULL AND NOT is_student`.execute(db);
  // Active tab, License: the sort key is the licence's, so each licence's holders (and those without one, '') are read
  // apart, each in e-mail order.
  await sql`
    CREATE INDEX IF NOT EXISTS members_license_email_idx
    ON members (organisation_id, (coalesce(license_id, '')), email)
    WHERE revoked_at IS NULL AND NOT is_student`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['members_license_email_idx', 'members_signed_up_idx', 'members_removed_at_idx', 'members_removed_name_idx']) {
    await sql`DROP INDEX IF EXISTS ${sql.id(index)}`.execute(db);
  }
}
