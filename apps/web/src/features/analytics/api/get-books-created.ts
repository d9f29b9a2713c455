import { useQuery, useQueryClient } from '@tanstack/react-query';
import { analyticsPeriodicCountSchema, type AnalyticsPeriod } from '@quire/core';
import { apiRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, freshAnalyticsSession } from './get-analytics-session.js';

/** users/organisations/{orgId}/books/count/periodic: books created per day, week or month. */
export function useBooksCreated(orgId: string, range: { period: AnalyticsPeriod; from: string; to: string }, enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.booksCreated(orgId, range),
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const session = await freshAnalyticsSession(queryClient, orgId);
      const url = analyticsUrl(session.urls.booksCountPeriodic, { period: range.period, from: range.from, to: range.to });
      return apiRequest(url, { schema: analyticsPeriodicCountSchema, signal });
    },
  });
}
