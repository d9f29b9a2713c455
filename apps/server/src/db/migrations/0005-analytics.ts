import { sql, type Kysely } from 'kysely';

/**
 * Analytics intake (docs/analytics.md): events carry the product's own id, unique per organisation, so
 * a retried batch is skipped; analytics_users remembers which students and teachers an organisation
 * has seen (the students count); books created per day are rolled up by triggers on books (the books
 * tile and chart); libraries get an index for "created between" counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE analytics_events ADD COLUMN event_id text`.execute(db);
  await sql`UPDATE analytics_events SET event_id = 'legacy-' || id::text WHERE event_id IS NULL`.execute(db);
  await sql`ALTER TABLE analytics_events ALTER COLUMN event_id SET NOT NULL`.execute(db);
  await sql`ALTER TABLE analytics_events ADD CONSTRAINT analytics_events_event_unique UNIQUE (organisation_id, event_id)`.execute(db);
  await sql`
    CREATE TABLE analytics_users (
      organisation_id text NOT NULL REFERENCES organisations(id) ON DELETE CASCADE,
      user_kind text NOT NULL CHECK (user_kind IN ('student', 'teacher')),
      user_id text NOT NULL,
      first_seen_at timestamptz NOT NULL,
      PRIMARY KEY (organisation_id, user_kind, user_id)
    )`.execute(db);
  await sql`COMMENT ON TABLE analytics_users IS 'Users an organisation has seen in session events; their first day is rolled up as metric users-first-seen'`.execute(db);
  // Users seen before this migration, and their rollup, so counts agree with the events already stored.
  await sql`
    INSERT INTO analytics_users (organisation_id, user_kind, user_id, first_seen_at)
    SELECT organisation_id, user_kind, user_id, min(occurred_at) FROM analytics_events
    WHERE user_id IS NOT NULL GROUP BY organisation_id, user_kind, user_id`.execute(db);
  await sql`
    INSERT INTO analytics_daily (organisation_id, metric, day, name, students, teachers, total)
    SELECT organisation_id, 'users-first-seen', (first_seen_at AT TIME ZONE 'UTC')::date, '',
           count(*) FILTER (WHERE user_kind = 'student'), count(*) FILTER (WHERE user_kind = 'teacher'), count(*)
    FROM analytics_users GROUP BY 1, 3
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`CREATE INDEX books_org_created_idx ON books (organisation_id, created_at)`.execute(db);
  // Books created per day, kept by statement-level triggers (one grouped upsert per statement, however many
  // rows it touches), so the books tile and chart read rollups, not the books table.
  await sql`
    CREATE FUNCTION analytics_books_created() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO analytics_daily AS d (organisation_id, metric, day, name, students, teachers, total)
        SELECT organisation_id, 'books-created', (created_at AT TIME ZONE 'UTC')::date, '', 0, 0, count(*)
        FROM new_rows GROUP BY 1, 3 ORDER BY 1, 3
        ON CONFLICT (organisation_id, metric, day, name) DO UPDATE SET total = d.total + excluded.total;
      ELSE
        UPDATE analytics_daily AS d SET total = d.total - o.n
        FROM (SELECT organisation_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM old_rows GROUP BY 1, 2) AS o
        WHERE d.organisation_id = o.organisation_id AND d.metric = 'books-created' AND d.day = o.day AND d.name = '';
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER books_created_rollup_insert AFTER INSERT ON books REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION analytics_books_created()`.execute(db);
  await sql`
    CREATE TRIGGER books_created_rollup_delete AFTER DELETE ON books REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION analytics_books_created()`.execute(db);
  await sql`
    INSERT INTO analytics_daily (organisation_id, metric, day, name, students, teachers, total)
    SELECT organisation_id, 'books-created', (created_at AT TIME ZONE 'UTC')::date, '', 0, 0, count(*)
    FROM books GROUP BY 1, 3
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`CREATE INDEX libraries_org_created_idx ON libraries (organisation_id, created_at) WHERE archived_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS libraries_org_created_idx`.execute(db);
  await sql`DROP TRIGGER IF EXISTS books_created_rollup_insert ON books`.execute(db);
  await sql`DROP TRIGGER IF EXISTS books_created_rollup_delete ON books`.execute(db);
  await sql`DROP FUNCTION IF EXISTS analytics_books_created()`.execute(db);
  await sql`DELETE FROM analytics_daily WHERE metric = 'books-created'`.execute(db);
  await sql`DROP INDEX IF EXISTS books_org_created_idx`.execute(db);
  await sql`DELETE FROM analytics_daily WHERE metric = 'users-first-seen'`.execute(db);
  await sql`DROP TABLE IF EXISTS analytics_users`.execute(db);
  await sql`ALTER TABLE analytics_events DROP CONSTRAINT IF EXISTS analytics_events_event_unique`.execute(db);
  await sql`ALTER TABLE analytics_events DROP COLUMN IF EXISTS event_id`.execute(db);
}
