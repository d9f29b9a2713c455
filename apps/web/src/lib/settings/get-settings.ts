import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, lazyContract, serviceUrl } from '../api/index.js';
import { queryKeys } from '../query-keys.js';

const settingsReadSchema = lazyContract((c) => c.settingsReadSchema);

/**
 * GET {api}/organisations/{orgId}/settings?include=sources (docs/settings.md), shared by Manage Apps and Image Search:
 * the values in force and, per setting, where each comes from (the organisation, or a district's lock or default).
 */
function settingsQueryOptions(orgId: string, userId: string | undefined) {
  return queryOptions({
    queryKey: queryKeys.settings(orgId),
    queryFn: ({ signal }) =>
      apiRequest(serviceUrl('api', '/organisations', orgId, 'settings'), { query: { userId, include: 'sources' }, schema: settingsReadSchema, signal }),
  });
}

export function useSettings(orgId: string, userId: string | undefined) {
  return useQuery(settingsQueryOptions(orgId, userId));
}
