import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { JobQueue } from '../../jobs/boss.js';
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

/** One run a day: pg-boss keeps one job per singleton key and UTC day (its `singletonSeconds` slot). */
const RETENTION_SLOT_SECONDS = 24 * 3600;

/**
 * Asks for the day's retention run. Every server copy asks every hour (a copy started late in the day, or one whose
 * run failed for good, still gets the day's run); pg-boss answers null, and queues nothing, when the day's job exists
 * already, in whatever state, so the retention runs once a UTC day however many copies ask.
 */
export function askForRetentionRun(jobs: Pick<JobQueue, 'send'>): Promise<string | null> {
  return jobs.send(AUDIT_RETENTION_QUEUE, {}, { singletonKey: 'daily', singletonSeconds: RETENTION_SLOT_SECONDS });
}

/** The queue's policy: a failure retries later in the day; the next day's run catches up anyway. */
export function auditRetentionQueueOptions(nodeEnv: string) {
  return nodeEnv === 'test'
    ? { retryLimit: 1, retryDelay: 1, retryBackoff: false, expireInSeconds: 3600 }
    : { retryLimit: 5, retryDelay: 600, retryBackoff: true, expireInSeconds: 4 * 3600 };
}
