import { AUDIT_TARGET_TEXTS_MAX, type AuditAction, type AuditActorKind, type ErrorCode } from '@quire/core';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AuditTargetRow, DB } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor, ClientInfo } from './actor.js';

type Db = Kysely<DB> | Transaction<DB>;

/** Who acted when it was not a signed-in person: a learning platform's launch, or one of Quire's own jobs. */
export interface AuditSystemActor {
  kind: Exclude<AuditActorKind, 'user' | 'provider_staff'>;
  /** The platform's consumer key, or the job's name. */
  id: string | null;
  name: string;
  email?: string | null;
}

/**
 * One audit entry (docs/audit-log.md). Give the targets by type and ids; their display texts are read from the
 * database in the same transaction unless `targets` gives them (needed when the rows are gone: a deletion).
 */
export interface AuditEntry {
  organisationId: string;
  action: AuditAction;
  targetType?: string;
  /** Every id the change touched (a bulk change names them all: one entry, not one per row). */
  targetIds?: string[];
  /** Targets with their display texts, when the caller knows them (kept first, before those read by targetType). */
  targets?: AuditTargetRow[];
  /** The value before and after, for a change of a value: plain objects of the same keys ({ role: 600 } → { role: 400 }). */
  oldValue?: unknown;
  newValue?: unknown;
  /** Anything else worth keeping (counts, the selection of a bulk change), never a secret. */
  details?: Record<string, unknown>;
  reason?: string;
  /** 'refused' with the error code the caller was answered; default 'success'. */
  outcome?: 'success' | 'refused';
  errorCode?: ErrorCode;
  /** Where the request came from, when the actor does not carry it (an LTI launch). */
  client?: ClientInfo;
}

/** The entry written: its id and its time to the microsecond (UTC). */
export interface RecordedAudit {
  id: string;
  at: string;
}

/**
 * The organisations whose rows an entry of `organisationId` may name: itself, those under it and those above it (a
 * district's licence allocated to a school, a school's teacher in the district's entry). A target id of any other
 * organisation reads no text: an entry never carries another tenant's names.
 */
function entryTree(db: Db, organisationId: string) {
  return db
    .selectFrom('organisation_ancestors')
    .select('organisation_id as id')
    .where('ancestor_id', '=', organisationId)
    .union(db.selectFrom('organisation_ancestors').select('ancestor_id as id').where('organisation_id', '=', organisationId));
}

/** Reads the display texts of targets by type, in the writer's transaction (so they are the texts of this moment). */
async function targetTexts(db: Db, organisationId: string | null, type: string, ids: string[]): Promise<AuditTargetRow[]> {
  if (ids.length === 0) return [];
  // An entry of no organisation (a sign-in refused before any was known) names its targets by id only.
  if (organisationId === null) return ids.slice(0, AUDIT_TARGET_TEXTS_MAX).map((id) => ({ type, id, label: null }));
  const wanted = ids.slice(0, AUDIT_TARGET_TEXTS_MAX);
  let rows: Array<{ id: string; label: string | null }> = [];
  if (type === 'member') {
    const found = await db
      .selectFrom('members')
      .select(['id', 'email', 'display_name'])
      .where('organisation_id', 'in', entryTree(db, organisationId))
      .where('id', 'in', wanted)
      .execute();
    rows = found.map((m) => ({ id: m.id, label: m.display_name ? `${m.display_name} <${m.email}>` : m.email }));
  } else if (type === 'library' || type === 'license') {
    // Libraries and licences are both named by their name, in an organisation of the entry's tree.
    rows = await db
      .selectFrom(type === 'library' ? 'libraries' : 'licenses')
      .select(['id', 'name as label'])
      .where('organisation_id', 'in', entryTree(db, organisationId))
      .where('id', 'in', wanted)
      .execute();
  } else if (type === 'organisation' || type === 'organisation_settings') {
    rows = await db.selectFrom('organisations').select(['id', 'name as label']).where('id', 'in', entryTree(db, organisationId)).where('id', 'in', wanted).execute();
  } else if (type === 'admin' || type === 'lti_credentials') {
    // Admins are named by their e-mail, credentials by their (public) consumer key: the id is the text.
    rows = wanted.map((id) => ({ id, label: id }));
  }
  const byId = new Map(rows.map((r) => [r.id, r.label]));
  return wanted.map((id) => ({ type, id, label: byId.get(id) ?? null }));
}

function actorColumns(actor: Actor | AuditSystemActor | null) {
  if (!actor) return { actor_user_id: null, actor_email: null, actor_name: null, actor_kind: 'job' as const };
  if ('kind' in actor) return { actor_user_id: actor.id, actor_email: actor.email ?? null, actor_name: actor.name, actor_kind: actor.kind };
  return {
    actor_user_id: actor.userId,
    actor_email: actor.email,
    actor_name: actor.displayName || null,
    actor_kind: actor.providerStaff ? ('provider_staff' as const) : ('user' as const),
  };
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/**
 * Records who changed what. Call it with the transaction of the change, so the entry and the change commit or roll
 * back together; a refusal is recorded with `outcome: 'refused'` after the change's transaction rolled back.
 * Nothing updates or deletes an entry afterwards (a trigger refuses it; only the retention job may delete).
 */
export async function recordAudit(db: Db, actor: Actor | AuditSystemActor | null, entry: AuditEntry): Promise<RecordedAudit> {
  const targetIds = entry.targetIds ?? entry.targets?.map((t) => t.id) ?? [];
  const given = entry.targets ?? [];
  const givenIds = new Set(given.map((t) => `${t.type}:${t.id}`));
  const missing = entry.targetType ? targetIds.filter((id) => !givenIds.has(`${entry.targetType}:${id}`)) : [];
  const read = entry.targetType ? await targetTexts(db, entry.organisationId, entry.targetType, missing.slice(0, Math.max(0, AUDIT_TARGET_TEXTS_MAX - given.length))) : [];
  const client = entry.client ?? (actor && !('kind' in actor) ? actor.client : undefined);
  return db
    .insertInto('audit_events')
    .values({
      organisation_id: entry.organisationId,
      ...actorColumns(actor),
      action: entry.action,
      target_type: entry.targetType ?? given[0]?.type ?? null,
      target_ids: targetIds,
      targets: JSON.stringify([...given, ...read]),
      old_value: json(entry.oldValue),
      new_value: json(entry.newValue),
      details: JSON.stringify(entry.details ?? {}),
      reason: entry.reason ?? null,
      ip: client?.ip ?? null,
      user_agent: client?.userAgent ?? null,
      outcome: entry.outcome ?? 'success',
      error_code: entry.errorCode ?? null,
    })
    .returning([sql<string>`id::text`.as('id'), sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('at')])
    .executeTakeFirstOrThrow();
}

/**
 * The same entry in every organisation of a list, once each (a sign-in is recorded in each organisation the person
 * administers; an allocation in the district and the school).
 */
export async function recordAuditIn(
  db: Db,
  organisationIds: Iterable<string>,
  actor: Actor | AuditSystemActor | null,
  entry: Omit<AuditEntry, 'organisationId'>,
): Promise<void> {
  for (const organisationId of new Set(organisationIds)) await recordAudit(db, actor, { ...entry, organisationId });
}

/**
 * Runs a change and, when it is refused with one of `codes` (a business rule, not bad input), records the refusal:
 * the change's own transaction rolled back, so the entry is written on its own, with the code the caller was
 * answered. Other errors pass through unrecorded.
 */
export async function recordingRefusal<T>(
  db: Kysely<DB>,
  actor: Actor | null,
  entry: Omit<AuditEntry, 'outcome' | 'errorCode'>,
  codes: readonly ErrorCode[],
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof AppError && codes.includes(error.code)) {
      await recordAudit(db, actor, { ...entry, outcome: 'refused', errorCode: error.code, details: { ...entry.details, message: error.message } });
    }
    throw error;
  }
}
