import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { recordAudit, type AuditSystemActor } from '../access/audit.js';
import * as repo from './audit.repository.js';

export const AUDIT_RETENTION_QUEUE = 'audit-retention';

/** Entries deleted per transaction: short transactions, so the log stays writable while a large backlog goes. */
const AUDIT_RETENTION_BATCH = 5000;

const RETENTION_JOB: AuditSystemActor = { kind: 'job', id: AUDIT_RETENTION_QUEUE, name: 'Audit log retention' };

/**
 * Deletes every organisation's entries older than its retention period, in batches of their own transactions, then
 * records one summary entry per organisation with the count (in the last batch's transaction, so the count and the
 * deletion land together). Safe to run twice: a second run finds nothing older and records nothing.
 */
export async function purgeExpiredAuditEvents(db: Kysely<DB>, batch = AUDIT_RETENTION_BATCH): Promise<Array<{ organisationId: string; deleted: number }>> {
  const done: Array<{ organisationId: string; deleted: number }> = [];
  for (const org of await repo.organisationsWithExpiredEntries(db)) {
    let deleted = 0;
    for (;;) {
      const last = await db.transaction().execute(async (trx) => {
        const n = await repo.deleteExpiredBatch(trx, org.id, org.cutoff, batch);
        deleted += n;
        if (n < batch && deleted > 0) {
          await recordAudit(trx, RETENTION_JOB, {
            organisationId: org.id,
            action: 'audit.retention.purge',
            targetType: 'organisation',
            targetIds: [org.id],
            details: { deleted, before: org.cutoff.toISOString(), retentionDays: org.retention_days },
          });
        }
        return n < batch;
      });
      if (last) break;
    }
    done.push({ organisationId: org.id, deleted });
  }
  return done;
}

/** The queue's policy: a failure retries later in the day; the next day's run catches up anyway. */
export function auditRetentionQueueOptions(nodeEnv: string) {
  return nodeEnv === 'test'
    ? { retryLimit: 1, retryDelay: 1, retryBackoff: false, expireInSeconds: 3600 }
    : { retryLimit: 5, retryDelay: 600, retryBackoff: true, expireInSeconds: 4 * 3600 };
}
