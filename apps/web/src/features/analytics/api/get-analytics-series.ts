import { useQuery, useQueryClient } from '@tanstack/react-query';
import { analyticsSeriesSchema, type AnalyticsGranularity, type AnalyticsMetric } from '@quire/core';
import { apiRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, freshAnalyticsSession } from './get-analytics-session.js';

/** data/app/organisations/{orgId}/{metric}[/daily|/weekly|/monthly].json with the session's signed query. */
export function useAnalyticsSeries(
  orgId: string,
  metric: AnalyticsMetric,
  granularity: 'total' | AnalyticsGranularity,
  range: { from: string; to: string },
  enabled: boolean,
) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.analyticsSeries(orgId, metric, granularity, range),
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const session = await freshAnalyticsSession(queryClient, orgId);
      const url = analyticsUrl(session.urls.data[metric][granularity], { from: range.from, to: range.to });
      return apiRequest(url, { schema: analyticsSeriesSchema, signal });
    },
  });
}
