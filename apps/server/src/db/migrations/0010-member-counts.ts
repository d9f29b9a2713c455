import { sql, type Kysely } from 'kysely';

/**
 * The Teachers page's total without counting 100,000 rows on every page.
 *
 * member_counts holds, per organisation, how many teachers (members who are neither students nor provider staff on
 * a support visit, migration 0009) there are for each
 * combination of removed (the Inactive tab) / pending (not signed up) / licence ('' = none). The list's total
 * for a filter the counts can answer (tab, Signed up, License) is a sum over a handful of these rows; a search
 * or the Certification filter still counts the matching rows (modules/members/teachers-list.repository.ts).
 *
 * Statement-level triggers with transition tables keep it exact: one grouped upsert per statement however many
 * rows it touches, in key order (so two writers lock the same rows in the same order), and nothing at all
 * when a statement changes none of the four columns (the deltas cancel out). A row that falls to zero is
 * deleted by the statement that emptied it, so only the writer's own rows are ever removed. No foreign key: an
 * organisation's rows go with it through the same deltas, whatever order the cascades run in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE member_counts (
      organisation_id text NOT NULL,
      revoked boolean NOT NULL,
      pending boolean NOT NULL,
      license_id text NOT NULL,
      teachers bigint NOT NULL,
      PRIMARY KEY (organisation_id, revoked, pending, license_id)
    )`.execute(db);
  await sql`COMMENT ON TABLE member_counts IS 'Teachers (members, not students, not provider staff) per organisation, removed, pending and licence ('''' = none); kept by triggers on members'`.execute(db);
  await sql`
    CREATE FUNCTION member_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO member_counts AS c (organisation_id, revoked, pending, license_id, teachers)
        SELECT organisation_id, revoked_at IS NOT NULL, pending, coalesce(license_id, ''), count(*)
        FROM new_rows WHERE NOT is_student AND NOT is_provider_staff GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
        ON CONFLICT (organisation_id, revoked, pending, license_id) DO UPDATE SET teachers = c.teachers + excluded.teachers;
      ELSIF TG_OP = 'DELETE' THEN
        UPDATE member_counts AS c SET teachers = c.teachers - d.n
        FROM (SELECT organisation_id, revoked_at IS NOT NULL AS revoked, pending, coalesce(license_id, '') AS license_id, count(*) AS n
              FROM old_rows WHERE NOT is_student AND NOT is_provider_staff GROUP BY 1, 2, 3, 4) AS d
        WHERE (c.organisation_id, c.revoked, c.pending, c.license_id) = (d.organisation_id, d.revoked, d.pending, d.license_id);
        DELETE FROM member_counts WHERE organisation_id IN (SELECT organisation_id FROM old_rows) AND teachers = 0;
      ELSE
        INSERT INTO member_counts AS c (organisation_id, revoked, pending, license_id, teachers)
        SELECT organisation_id, revoked, pending, license_id, sum(n) FROM (
          SELECT organisation_id, revoked_at IS NOT NULL AS revoked, pending, coalesce(license_id, '') AS license_id, 1 AS n
          FROM new_rows WHERE NOT is_student AND NOT is_provider_staff
          UNION ALL
          SELECT organisation_id, revoked_at IS NOT NULL, pending, coalesce(license_id, ''), -1
          FROM old_rows WHERE NOT is_student AND NOT is_provider_staff
        ) AS d
        GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4
        ON CONFLICT (organisation_id, revoked, pending, license_id) DO UPDATE SET teachers = c.teachers + excluded.teachers;
        DELETE FROM member_counts WHERE organisation_id IN (SELECT organisation_id FROM old_rows) AND teachers = 0;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER member_counts_insert AFTER INSERT ON members REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_counts_apply()`.execute(db);
  await sql`
    CREATE TRIGGER member_counts_update AFTER UPDATE ON members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_counts_apply()`.execute(db);
  await sql`
    CREATE TRIGGER member_counts_delete AFTER DELETE ON members REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_counts_apply()`.execute(db);
  await sql`
    INSERT INTO member_counts (organisation_id, revoked, pending, license_id, teachers)
    SELECT organisation_id, revoked_at IS NOT NULL, pending, coalesce(license_id, ''), count(*)
    FROM members WHERE NOT is_student AND NOT is_provider_staff GROUP BY 1, 2, 3, 4`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS member_counts_insert ON members`.execute(db);
  await sql`DROP TRIGGER IF EXISTS member_counts_update ON members`.execute(db);
  await sql`DROP TRIGGER IF EXISTS member_counts_delete ON members`.execute(db);
  await sql`DROP FUNCTION IF EXISTS member_counts_apply()`.execute(db);
  await sql`DROP TABLE IF EXISTS member_counts`.execute(db);
}
