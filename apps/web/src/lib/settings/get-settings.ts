import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, lazyContract, serviceUrl } from '../api/index.js';
import { queryKeys } from '../query-keys.js';

const organisationSettingsSchema = lazyContract((c) => c.organisationSettingsSchema);

/** GET {api}/organisations/{orgId}/settings (docs/settings.md), shared by Manage Apps and Image Search. */
function settingsQueryOptions(orgId: string, userId: string | undefined) {
  return queryOptions({
    queryKey: queryKeys.settings(orgId),
    queryFn: ({ signal }) =>
      apiRequest(serviceUrl('api', '/organisations', orgId, 'settings'), { query: { userId }, schema: organisationSettingsSchema, signal }),
  });
}

export function useSettings(orgId: string, userId: string | undefined) {
  return useQuery(settingsQueryOptions(orgId, userId));
}
