import { sql, type Kysely } from 'kysely';

/**
 * The audit log's searches (docs/audit-log.md, "Indexes and speed"). The actor and target filters are substring
 * matches (`LIKE '%…%'`); without an index a search that matches few entries reads every entry of the organisation,
 * scattered over the table (0.35 s at 100,000 entries; docs/performance.md). Trigram indexes (pg_trgm, which
 * PostgreSQL and PGlite both have, migration 0001) find the few matches directly:
 * - the actor's e-mail and name, lower-cased as the filter compares them;
 * - the targets' texts, as the JSON's text lower-cased: the filter checks it first, then each target's label and id;
 * - every id a change touched (target_ids, a GIN array index), for the exact id of a target past the first 100;
 * - the refusals of each organisation in time order (a partial index: a refusal is rare, so the outcome filter
 *   otherwise reads hundreds of entries for each one it keeps).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX audit_events_actor_email_trgm_idx ON audit_events USING gin (lower(actor_email) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX audit_events_actor_name_trgm_idx ON audit_events USING gin (lower(actor_name) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX audit_events_targets_trgm_idx ON audit_events USING gin (lower(targets::text) gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX audit_events_target_ids_idx ON audit_events USING gin (target_ids)`.execute(db);
  await sql`CREATE INDEX audit_events_refused_idx ON audit_events (organisation_id, created_at DESC, id DESC) WHERE outcome = 'refused'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS audit_events_refused_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_events_target_ids_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_events_targets_trgm_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_events_actor_name_trgm_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS audit_events_actor_email_trgm_idx`.execute(db);
}
