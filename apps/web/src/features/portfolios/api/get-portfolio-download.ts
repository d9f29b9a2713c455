import { useQuery } from '@tanstack/react-query';
import { portfolioDownloadSchema, type PortfolioDownload } from '@quire/core';
import { env } from '../../../config/env.js';
import { apiRequest, isApiError, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** The answer of the export call, with when its link stops working (spec §4: arrival time + refreshIn). */
export interface PortfolioLink extends PortfolioDownload {
  /** Epoch ms when the answer arrived. */
  receivedAt: number;
  /** Epoch ms when the link expires. */
  expiresAt: number;
}

/** Renew this long before the link expires, so the page never shows a dead one. */
const RENEW_BEFORE_MS = 15_000;
/** While the first export is being built (425), ask again this often. */
const NOT_READY_POLL_MS = 60_000;

/** A link the server gave relative to the organisation service, made absolute when that service is elsewhere. */
function absoluteDownloadUrl(url: string): string {
  if (!url.startsWith('/') || !/^https?:\/\//.test(env.rest)) return url;
  return new URL(url, env.rest).toString();
}

/** GET /rest/{org}/student-portfolios-export/{id}, {id} being the acting user. */
export async function getPortfolioDownload(orgId: string, userId: string, signal?: AbortSignal, now: () => number = Date.now): Promise<PortfolioLink> {
  const data = await apiRequest(serviceUrl('rest', '', orgId, 'student-portfolios-export', userId), { schema: portfolioDownloadSchema, signal });
  const receivedAt = now();
  return { ...data, url: absoluteDownloadUrl(data.url), receivedAt, expiresAt: receivedAt + data.refreshIn * 1000 };
}

/** When to ask again: shortly before the link expires; every minute while not ready; never after another error. @internal */
export function nextRefreshMs(link: PortfolioLink | undefined, error: unknown, now = Date.now()): number | false {
  if (link) return Math.max(1_000, link.expiresAt - now - Math.min(RENEW_BEFORE_MS, (link.refreshIn * 1000) / 4));
  if (isApiError(error) && error.status === 425) return NOT_READY_POLL_MS;
  return false;
}

export function usePortfolioDownload(orgId: string, userId: string) {
  return useQuery({
    queryKey: queryKeys.portfolioDownload(orgId),
    queryFn: ({ signal }) => getPortfolioDownload(orgId, userId, signal),
    enabled: orgId !== '' && userId !== '',
    staleTime: 0,
    // A tab that slept past the expiry renews as soon as it is looked at again.
    refetchOnWindowFocus: true,
    refetchInterval: (query) => nextRefreshMs(query.state.data, query.state.error),
  });
}
