import { sql, type Kysely } from 'kysely';

/**
 * The audit log an admin reads (docs/audit-log.md). audit_events is extended, not replaced: rows written before keep
 * their columns and read with the defaults below (a console user, success, no snapshot of their targets' texts).
 *
 * - Who: actor_name and actor_kind beside the e-mail and id already kept, as they were at the time.
 * - What: targets (type, id and display text of the first ones; target_ids keeps every id of a bulk change),
 *   old_value and new_value, the outcome and its error code.
 * - From where: the client address (request.ip, which believes X-Forwarded-For only through TRUST_PROXY) and the
 *   user agent.
 * - Read newest first in keyset pages per organisation: (organisation_id, created_at DESC, id DESC), and the same
 *   with the action first for the action filter.
 * - Nothing but the retention job deletes or changes an entry: a trigger refuses UPDATE and DELETE unless the
 *   transaction set `quire.audit_retention` (SET LOCAL, the job's), or the organisation itself is being deleted
 *   (the foreign key's cascade).
 * - Per organisation, how long entries are kept (organisations.audit_retention_days).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE audit_events
      ADD COLUMN actor_name text,
      ADD COLUMN actor_kind text NOT NULL DEFAULT 'user' CHECK (actor_kind IN ('user', 'provider_staff', 'lti_platform', 'job')),
      ADD COLUMN targets jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN old_value jsonb,
      ADD COLUMN new_value jsonb,
      ADD COLUMN ip text,
      ADD COLUMN user_agent text,
      ADD COLUMN outcome text NOT NULL DEFAULT 'success' CHECK (outcome IN ('success', 'refused')),
      ADD COLUMN error_code text`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_events_org_time_idx`.execute(db);
  await sql`CREATE INDEX audit_events_org_time_idx ON audit_events (organisation_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX audit_events_org_action_time_idx ON audit_events (organisation_id, action, created_at DESC, id DESC)`.execute(db);
  await sql`COMMENT ON TABLE audit_events IS 'The audit log: one row per change (or refusal) in an organisation; written in the change''s transaction, never updated, deleted only by the retention job'`.execute(db);

  await sql`
    CREATE FUNCTION audit_events_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' AND (
        current_setting('quire.audit_retention', true) = 'on'
        OR NOT EXISTS (SELECT 1 FROM organisations WHERE id = OLD.organisation_id)
      ) THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'audit entries cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER audit_events_immutable BEFORE UPDATE OR DELETE ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_events_immutable()`.execute(db);

  await sql`
    ALTER TABLE organisations
      ADD COLUMN audit_retention_days integer NOT NULL DEFAULT 730 CHECK (audit_retention_days BETWEEN 90 AND 2555)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE organisations DROP COLUMN IF EXISTS audit_retention_days`.execute(db);
  await sql`DROP TRIGGER IF EXISTS audit_events_immutable ON audit_events`.execute(db);
  await sql`DROP FUNCTION IF EXISTS audit_events_immutable()`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_events_org_action_time_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_events_org_time_idx`.execute(db);
  await sql`CREATE INDEX audit_events_org_time_idx ON audit_events (organisation_id, created_at DESC)`.execute(db);
  await sql`
    ALTER TABLE audit_events
      DROP COLUMN actor_name, DROP COLUMN actor_kind, DROP COLUMN targets, DROP COLUMN old_value, DROP COLUMN new_value,
      DROP COLUMN ip, DROP COLUMN user_agent, DROP COLUMN outcome, DROP COLUMN error_code`.execute(db);
}
