import { useQuery } from '@tanstack/react-query';
import { scimSetupSchema } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** GET {api}/organisations/{orgId}/scim/tokens: the SCIM base URL and the live tokens (never the tokens themselves). */
export function useScimSetup(orgId: string) {
  return useQuery({
    queryKey: queryKeys.scimSetup(orgId),
    queryFn: ({ signal }) => apiRequest(serviceUrl('api', '/organisations', orgId, 'scim', 'tokens'), { schema: scimSetupSchema, signal }),
    retry: false,
  });
}
