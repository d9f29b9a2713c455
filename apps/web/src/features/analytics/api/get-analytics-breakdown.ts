import { useQuery, useQueryClient } from '@tanstack/react-query';
import { analyticsBreakdownSchema } from '@quire/core';
import { apiRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, freshAnalyticsSession } from './get-analytics-session.js';

/** data/app/organisations/{orgId}/breakdown.json: the organisation's own figures and each organisation directly below it. */
export function useAnalyticsBreakdown(orgId: string, range: { from: string; to: string }, enabled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.analyticsBreakdown(orgId, range),
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const session = await freshAnalyticsSession(queryClient, orgId);
      return apiRequest(analyticsUrl(session.urls.breakdown, { from: range.from, to: range.to }), { schema: analyticsBreakdownSchema, signal });
    },
  });
}
