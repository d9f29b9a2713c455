import { analyticsCountSchema, type AnalyticsPeriod } from '@quire/core';
import { queryKeys } from '../../../lib/query-keys.js';
import { analyticsUrl, useSignedAnalyticsQuery } from './get-analytics-session.js';

export type CountSubject = 'students' | 'libraries' | 'books';

const URL_OF = { students: 'studentsCount', libraries: 'librariesCount', books: 'booksCount' } as const;

/** users/organisations/{orgId}/{students|libraries|books}/count; with a range, what was created in it. */
export function useAnalyticsCount(
  orgId: string,
  subject: CountSubject,
  range: { period: AnalyticsPeriod; from: string; to: string } | null,
  enabled: boolean,
) {
  return useSignedAnalyticsQuery(
    orgId,
    queryKeys.analyticsCount(orgId, subject, range),
    enabled,
    (urls) => analyticsUrl(urls[URL_OF[subject]], range ?? {}),
    analyticsCountSchema,
  );
}
