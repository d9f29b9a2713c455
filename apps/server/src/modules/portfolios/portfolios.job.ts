import type { Job } from 'pg-boss';
import type { Database } from '../../db/client.js';
import { buildPortfolioExport, type BuildOptions } from './export-build.service.js';

export const PORTFOLIO_EXPORT_QUEUE = 'student-portfolios-export';

export interface PortfolioExportJobData {
  organisationId: string;
}

/**
 * The queue's policy: 'stately' with the organisation as singleton key, so an organisation has at most one
 * build waiting and one running; failures retry with backoff; a district's build may take a while.
 */
export function portfolioExportQueueOptions(nodeEnv: string) {
  return {
    policy: 'stately' as const,
    expireInSeconds: 4 * 3600,
    ...(nodeEnv === 'test'
      ? { retryLimit: 2, retryDelay: 1, retryBackoff: false }
      : { retryLimit: 6, retryDelay: 60, retryBackoff: true, retryDelayMax: 3600 }),
  };
}

/** Builds one organisation's export. Throws on failure so pg-boss retries; a failed build leaves nothing visible. */
export function portfolioExportHandler(
  database: Database,
  log: (fields: Record<string, unknown>, line: string) => void,
  options: () => BuildOptions = () => ({}),
) {
  return async (job: Job<PortfolioExportJobData>): Promise<void> => {
    const started = performance.now();
    try {
      const result = await buildPortfolioExport(database, job.data.organisationId, options());
      if (result) {
        log({ organisationId: job.data.organisationId, ...result, ms: Math.round(performance.now() - started) }, 'Student portfolio export built');
      }
    } catch (error) {
      log({ organisationId: job.data.organisationId, attempt: job.retryCount + 1, err: error }, 'Student portfolio export failed');
      throw error;
    }
  };
}
