import { analyticsBreakdownSchema } from '@quire/core';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, useSignedAnalyticsQuery } from './get-analytics-session.js';

/** data/app/organisations/{orgId}/breakdown.json: the organisation's own figures and each organisation directly below it. */
export function useAnalyticsBreakdown(orgId: string, range: { from: string; to: string }, enabled: boolean) {
  return useSignedAnalyticsQuery(
    orgId,
    queryKeys.analyticsBreakdown(orgId, range),
    enabled,
    (urls) => analyticsUrl(urls.breakdown, { from: range.from, to: range.to }),
    analyticsBreakdownSchema,
  );
}
