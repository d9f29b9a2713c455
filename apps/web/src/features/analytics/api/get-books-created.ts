import { analyticsPeriodicCountSchema, type AnalyticsPeriod } from '@quire/core';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, useSignedAnalyticsQuery } from './get-analytics-session.js';

/** users/organisations/{orgId}/books/count/periodic: books created per day, week or month. */
export function useBooksCreated(orgId: string, range: { period: AnalyticsPeriod; from: string; to: string }, enabled: boolean) {
  return useSignedAnalyticsQuery(
    orgId,
    queryKeys.booksCreated(orgId, range),
    enabled,
    (urls) => analyticsUrl(urls.booksCountPeriodic, { period: range.period, from: range.from, to: range.to }),
    analyticsPeriodicCountSchema,
  );
}
