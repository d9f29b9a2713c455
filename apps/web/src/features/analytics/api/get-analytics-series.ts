import { analyticsSeriesSchema, type AnalyticsGranularity, type AnalyticsMetric } from '@quire/core';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, useSignedAnalyticsQuery } from './get-analytics-session.js';

/** data/app/organisations/{orgId}/{metric}[/daily|/weekly|/monthly].json with the session's signed query. */
export function useAnalyticsSeries(
  orgId: string,
  metric: AnalyticsMetric,
  granularity: 'total' | AnalyticsGranularity,
  range: { from: string; to: string },
  enabled: boolean,
) {
  return useSignedAnalyticsQuery(
    orgId,
    queryKeys.analyticsSeries(orgId, metric, granularity, range),
    enabled,
    (urls) => analyticsUrl(urls.data[metric][granularity], { from: range.from, to: range.to }),
    analyticsSeriesSchema,
  );
}
