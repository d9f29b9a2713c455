import { useQuery, useQueryClient } from '@tanstack/react-query';
import { analyticsCountSchema, type AnalyticsPeriod } from '@quire/core';
import { apiRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, freshAnalyticsSession } from './get-analytics-session.js';

export type CountSubject = 'students' | 'libraries' | 'books';

const URL_OF = { students: 'studentsCount', libraries: 'librariesCount', books: 'booksCount' } as const;

/** users/organisations/{orgId}/{students|libraries|books}/count; with a range, what was created in it. */
export function useAnalyticsCount(
  orgId: string,
  subject: CountSubject,
  range: { period: AnalyticsPeriod; from: string; to: string } | null,
  enabled: boolean,
) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.analyticsCount(orgId, subject, range),
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const session = await freshAnalyticsSession(queryClient, orgId);
      const url = analyticsUrl(session.urls[URL_OF[subject]], range ?? {});
      return apiRequest(url, { schema: analyticsCountSchema, signal });
    },
  });
}
