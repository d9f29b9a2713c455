import { sql, type Kysely } from 'kysely';

/**
 * A version per organisation of its Teachers list, so a page asked for by number can start from anchors read earlier
 * (modules/members/teachers-anchors.ts) and know they still hold.
 *
 * member_list_versions.version goes up, in the writer's own transaction, with every statement that inserts, updates or
 * deletes members of the organisation (whatever the columns: anything may change who is listed or where), and with
 * every change of a licence's quotas (the License order sorts by them). Statement-level triggers with transition
 * tables: one upsert per statement however many rows it touches, in key order (so two writers lock the same rows in
 * the same order), as member_counts does (migration 0010). No foreign key: a row outlives its organisation harmlessly.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE member_list_versions (
      organisation_id text PRIMARY KEY,
      version bigint NOT NULL
    )`.execute(db);
  await sql`COMMENT ON TABLE member_list_versions IS 'Per organisation, bumped by every write to its members or its licences'' quotas; the Teachers list''s anchors hold while it stays'`.execute(db);
  await sql`
    CREATE FUNCTION member_list_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'licenses' THEN
        INSERT INTO member_list_versions AS v (organisation_id, version)
        SELECT DISTINCT n.organisation_id, 1 FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.organisation_id = n.organisation_id
        WHERE (n.book_quota, n.library_quota) IS DISTINCT FROM (o.book_quota, o.library_quota)
        ORDER BY 1
        ON CONFLICT (organisation_id) DO UPDATE SET version = v.version + 1;
      ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO member_list_versions AS v (organisation_id, version)
        SELECT DISTINCT organisation_id, 1 FROM new_rows ORDER BY 1
        ON CONFLICT (organisation_id) DO UPDATE SET version = v.version + 1;
      ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO member_list_versions AS v (organisation_id, version)
        SELECT DISTINCT organisation_id, 1 FROM old_rows ORDER BY 1
        ON CONFLICT (organisation_id) DO UPDATE SET version = v.version + 1;
      ELSE
        INSERT INTO member_list_versions AS v (organisation_id, version)
        SELECT organisation_id, 1 FROM (SELECT organisation_id FROM new_rows UNION SELECT organisation_id FROM old_rows) AS t ORDER BY 1
        ON CONFLICT (organisation_id) DO UPDATE SET version = v.version + 1;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER member_list_versions_insert AFTER INSERT ON members REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_list_versions_bump()`.execute(db);
  await sql`
    CREATE TRIGGER member_list_versions_update AFTER UPDATE ON members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_list_versions_bump()`.execute(db);
  await sql`
    CREATE TRIGGER member_list_versions_delete AFTER DELETE ON members REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_list_versions_bump()`.execute(db);
  await sql`
    CREATE TRIGGER member_list_versions_license_quota AFTER UPDATE ON licenses REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION member_list_versions_bump()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS member_list_versions_license_quota ON licenses`.execute(db);
  await sql`DROP TRIGGER IF EXISTS member_list_versions_insert ON members`.execute(db);
  await sql`DROP TRIGGER IF EXISTS member_list_versions_update ON members`.execute(db);
  await sql`DROP TRIGGER IF EXISTS member_list_versions_delete ON members`.execute(db);
  await sql`DROP FUNCTION IF EXISTS member_list_versions_bump()`.execute(db);
  await sql`DROP TABLE IF EXISTS member_list_versions`.execute(db);
}
