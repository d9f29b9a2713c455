import { queryOptions, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { analyticsSessionSchema, type AnalyticsSession } from '@quire/core';
import { apiRequest, serviceUrl, type Contract } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** Renew this long before the signed URLs expire (and at least at three quarters of their life). */
const RENEW_MARGIN_MS = 60_000;


/** How long after fetching a session it should be renewed. @internal */
export function renewAfterMs(session: Pick<AnalyticsSession, 'refreshIn'>): number {
  const life = session.refreshIn * 1000;
  const byMargin = life - RENEW_MARGIN_MS;
  // Short lives (tests, strict setups) renew at three quarters, never in a tight loop.
  return Math.max(5_000, byMargin >= life / 2 ? Math.min(life * 0.75, byMargin) : life * 0.75);
}

/**
 * GET {analytics}/sessions/app/organisations/{orgId}: refreshIn, usersOrganisation and the signed
 * URLs. Renewed on a timer before they expire, so a page left open for hours keeps working.
 */
function analyticsSessionQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: queryKeys.analyticsSession(orgId),
    queryFn: ({ signal }) => apiRequest(serviceUrl('analytics', '/sessions/app/organisations', orgId), { schema: analyticsSessionSchema, signal }),
    staleTime: (query) => (query.state.data ? renewAfterMs(query.state.data) : 0),
    refetchInterval: (query) => (query.state.data ? renewAfterMs(query.state.data) : false),
    refetchIntervalInBackground: true,
  });
}

export function useAnalyticsSession(orgId: string) {
  return useQuery(analyticsSessionQueryOptions(orgId));
}

/**
 * The session to sign a data request with: the cached one while it is fresh, else a new one
 * (a tab whose timers were paused in the background may wake up with expired URLs). @internal
 */
export async function freshAnalyticsSession(queryClient: QueryClient, orgId: string): Promise<AnalyticsSession> {
  const options = analyticsSessionQueryOptions(orgId);
  const state = queryClient.getQueryState(options.queryKey);
  const cached = state?.data;
  if (cached && Date.now() - state.dataUpdatedAt < renewAfterMs(cached)) return cached;
  return queryClient.fetchQuery({ ...options, staleTime: 0 });
}

/** A signed URL of the session (a path on the server's /analytics mount) on the analytics service's base URL. */
export function analyticsUrl(signedPath: string, extra: Record<string, string> = {}): string {
  const [path = '', query = ''] = signedPath.split('?');
  const params = new URLSearchParams(query);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return serviceUrl('analytics', `${path.replace(/^\/analytics/, '')}?${params.toString()}`);
}

/**
 * One of the session's signed URLs as a query: signed with a fresh session when it runs, and its figures kept for five
 * minutes (the data behind them is rolled up, not live).
 */
export function useSignedAnalyticsQuery<T>(
  orgId: string,
  queryKey: QueryKey,
  enabled: boolean,
  url: (urls: AnalyticsSession['urls']) => string,
  schema: Contract<T>,
) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey,
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const session = await freshAnalyticsSession(queryClient, orgId);
      return apiRequest(url(session.urls), { schema, signal });
    },
  });
}
