import { sql, type Kysely, type Transaction } from 'kysely';
import type { AuditFilters } from '@quire/core';
import type { AuditTargetRow, DB } from '../../db/types.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Where a page continues: the last entry's time (microseconds, UTC) and id, newest first. */
export interface AuditSeek {
  at: string;
  id: string;
}

export interface AuditRow {
  id: string;
  /** created_at to the microsecond, UTC, ISO 8601 (the cursor's key). */
  at: string;
  organisation_id: string;
  organisation_name: string;
  actor_user_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  actor_kind: 'user' | 'provider_staff' | 'lti_platform' | 'job';
  action: string;
  target_type: string | null;
  target_ids: string[];
  targets: AuditTargetRow[];
  old_value: unknown;
  new_value: unknown;
  details: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
  outcome: 'success' | 'refused';
  error_code: string | null;
}

/** Escapes LIKE wildcards so a search for "50%" means the characters; lower-cased for a case-blind match. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

/** The filters as one WHERE condition over `e` (audit_events) in the organisation's scope. */
function conditions(organisationId: string, filters: AuditFilters, seek: AuditSeek | null) {
  const parts = [
    filters.school
      ? sql`e.organisation_id = ${filters.school} AND EXISTS (SELECT 1 FROM organisation_ancestors a WHERE a.organisation_id = ${filters.school} AND a.ancestor_id = ${organisationId})`
      : sql`e.organisation_id IN (SELECT a.organisation_id FROM organisation_ancestors a WHERE a.ancestor_id = ${organisationId})`,
  ];
  if (filters.actor) {
    const pattern = likePattern(filters.actor);
    parts.push(sql`(lower(e.actor_email) LIKE ${pattern} OR lower(e.actor_name) LIKE ${pattern})`);
  }
  if (filters.action?.length) parts.push(sql`e.action = ANY(${filters.action}::text[])`);
  if (filters.target) {
    const pattern = likePattern(filters.target);
    parts.push(sql`(EXISTS (SELECT 1 FROM jsonb_array_elements(e.targets) t WHERE lower(t->>'label') LIKE ${pattern} OR lower(t->>'id') LIKE ${pattern})
      OR ${filters.target} = ANY(e.target_ids))`);
  }
  if (filters.from) parts.push(sql`e.created_at >= ${filters.from}::timestamptz`);
  if (filters.to) parts.push(sql`e.created_at < ${filters.to}::timestamptz`);
  if (filters.outcome) parts.push(sql`e.outcome = ${filters.outcome}`);
  if (seek) parts.push(sql`(e.created_at, e.id) < (${seek.at}::timestamptz, ${seek.id}::bigint)`);
  return sql.join(parts, sql` AND `);
}

/** The statement of one page (the benchmark compiles it to time the bare SQL against the route). */
export function auditEventsQuery(organisationId: string, filters: AuditFilters, seek: AuditSeek | null, limit: number) {
  return sql<AuditRow>`
    SELECT e.id::text AS id, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
      e.organisation_id, o.name AS organisation_name, e.actor_user_id, e.actor_email, e.actor_name, e.actor_kind,
      e.action, e.target_type, e.target_ids, e.targets, e.old_value, e.new_value, e.details, e.ip, e.user_agent,
      e.outcome, e.error_code
    FROM audit_events e JOIN organisations o ON o.id = e.organisation_id
    WHERE ${conditions(organisationId, filters, seek)}
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT ${limit}`;
}

/** One page of entries, newest first, after `seek` (keyset: a page never skips or repeats an entry). */
export async function listAuditEvents(db: Db, organisationId: string, filters: AuditFilters, seek: AuditSeek | null, limit: number): Promise<AuditRow[]> {
  const { rows } = await auditEventsQuery(organisationId, filters, seek, limit).execute(db);
  return rows;
}

/** True when an organisation sits under this one (a district's log holds its schools' entries). */
export async function hasOrganisationsBelow(db: Db, organisationId: string): Promise<boolean> {
  const row = await db.selectFrom('organisation_ancestors').select('organisation_id').where('ancestor_id', '=', organisationId).where('depth', '>', 0).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function readRetentionDays(db: Db, organisationId: string, options: { forUpdate?: boolean } = {}): Promise<number | undefined> {
  let query = db.selectFrom('organisations').select('audit_retention_days').where('id', '=', organisationId);
  if (options.forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst())?.audit_retention_days;
}

export async function writeRetentionDays(db: Db, organisationId: string, days: number): Promise<void> {
  await db.updateTable('organisations').set({ audit_retention_days: days }).where('id', '=', organisationId).execute();
}

/** Organisations with entries older than their retention, and the cut-off time of each. */
export async function organisationsWithExpiredEntries(db: Db): Promise<Array<{ id: string; cutoff: Date; retention_days: number }>> {
  const { rows } = await sql<{ id: string; cutoff: Date; retention_days: number }>`
    SELECT o.id, now() - make_interval(days => o.audit_retention_days) AS cutoff, o.audit_retention_days AS retention_days
    FROM organisations o
    WHERE EXISTS (
      SELECT 1 FROM audit_events e
      WHERE e.organisation_id = o.id AND e.created_at < now() - make_interval(days => o.audit_retention_days))
    ORDER BY o.id`.execute(db);
  return rows;
}

/**
 * Deletes up to `limit` of the organisation's entries older than `cutoff`, oldest first, and answers how many. The
 * transaction marks itself as the retention job's (SET LOCAL), the one writer the table's trigger lets delete.
 */
export async function deleteExpiredBatch(trx: Transaction<DB>, organisationId: string, cutoff: Date, limit: number): Promise<number> {
  await sql`SELECT set_config('quire.audit_retention', 'on', true)`.execute(trx);
  const { rows } = await sql<{ n: number }>`
    WITH gone AS (
      DELETE FROM audit_events WHERE id IN (
        SELECT id FROM audit_events WHERE organisation_id = ${organisationId} AND created_at < ${cutoff}
        ORDER BY created_at, id LIMIT ${limit})
      RETURNING 1)
    SELECT count(*)::int AS n FROM gone`.execute(trx);
  return rows[0]?.n ?? 0;
}
