import type { Job } from 'pg-boss';
import { applyRoster, failRoster, type ApplyDeps } from './roster-apply.service.js';

export const ROSTER_APPLY_QUEUE = 'roster-apply';

export interface RosterApplyJobData {
  organisationId: string;
  importId: string;
}

/** Retries of a failed apply (a database restart, a deploy): the retry picks up where the last batch committed. */
function retryLimit(nodeEnv: string) {
  return nodeEnv === 'test' ? 1 : 5;
}

export function rosterQueueOptions(nodeEnv: string) {
  return {
    policy: 'standard' as const,
    expireInSeconds: 2 * 3600,
    retryLimit: retryLimit(nodeEnv),
    ...(nodeEnv === 'test' ? { retryDelay: 1, retryBackoff: false } : { retryDelay: 30, retryBackoff: true, retryDelayMax: 600 }),
  };
}

/** Applies one import; throws so pg-boss retries, and marks the import failed once the retries are used up. */
export function rosterApplyHandler(deps: ApplyDeps, nodeEnv: string, log: (fields: Record<string, unknown>, line: string) => void) {
  return async (job: Job<RosterApplyJobData>): Promise<void> => {
    const { organisationId, importId } = job.data;
    const started = performance.now();
    try {
      const result = await applyRoster(deps, organisationId, importId);
      if (result) log({ organisationId, importId, ...result, ms: Math.round(performance.now() - started) }, 'Roster import applied');
    } catch (error) {
      log({ organisationId, importId, attempt: job.retryCount + 1, err: error }, 'Roster import failed');
      if (job.retryCount >= retryLimit(nodeEnv)) await failRoster(deps.db, organisationId, importId);
      throw error;
    }
  };
}
