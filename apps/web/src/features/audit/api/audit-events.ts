import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditOutcome } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const auditEventsPageSchema = lazyContract((c) => c.auditEventsPageSchema);

/** The screen's filters as the URL keeps them: dates are the admin's local days (YYYY-MM-DD), both inclusive. */
export interface AuditFilterValues {
  actor: string;
  actions: string[];
  target: string;
  from: string;
  to: string;
  outcome: AuditOutcome | '';
  school: string;
}

export const NO_FILTERS: AuditFilterValues = { actor: '', actions: [], target: '', from: '', to: '', outcome: '', school: '' };

/** Local midnight of a day as an ISO instant with its offset; `to` is the next day's midnight (exclusive). */
function localMidnight(day: string, addDays = 0): string | undefined {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d + addDays).toISOString();
}

/** The filters as the API takes them. */
function apiFilters(f: AuditFilterValues): Record<string, string | undefined> {
  return {
    actor: f.actor.trim() || undefined,
    action: f.actions.length ? f.actions.join(',') : undefined,
    target: f.target.trim() || undefined,
    from: f.from ? localMidnight(f.from) : undefined,
    to: f.to ? localMidnight(f.to, 1) : undefined,
    outcome: f.outcome || undefined,
    school: f.school || undefined,
  };
}

/** GET {api}/organisations/{orgId}/audit-events: pages of 50, newest first; "Show older entries" reads the next. */
export function useAuditEvents(orgId: string, filters: AuditFilterValues) {
  return useInfiniteQuery({
    queryKey: queryKeys.auditEvents(orgId, filters),
    queryFn: ({ pageParam, signal }) =>
      apiRequest(serviceUrl('api', '/organisations', orgId, 'audit-events'), {
        query: { ...apiFilters(filters), cursor: pageParam ?? undefined },
        schema: auditEventsPageSchema,
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** GET …/audit-events.csv: exactly the filtered view, every page. */
export function fetchAuditCsv(orgId: string, filters: AuditFilterValues): Promise<Blob> {
  return apiRequest<Blob>(serviceUrl('api', '/organisations', orgId, 'audit-events.csv'), {
    query: apiFilters(filters),
    headers: { Accept: 'text/csv' },
    responseType: 'blob',
  });
}
