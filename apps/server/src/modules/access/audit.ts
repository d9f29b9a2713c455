import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Actor } from './actor.js';

export interface AuditEntry {
  organisationId: string | null;
  action: string;
  targetType?: string;
  targetIds?: string[];
  details?: Record<string, unknown>;
  reason?: string;
}

/** Records who changed what, inside the caller's transaction so the record and the change land together. */
export async function recordAudit(db: Kysely<DB> | Transaction<DB>, actor: Actor | null, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      organisation_id: entry.organisationId,
      actor_user_id: actor?.userId ?? null,
      actor_email: actor?.email ?? null,
      action: entry.action,
      target_type: entry.targetType ?? null,
      target_ids: entry.targetIds ?? [],
      details: JSON.stringify(entry.details ?? {}),
      reason: entry.reason ?? null,
    })
    .execute();
}
