import { useQuery } from '@tanstack/react-query';
import { scimRequestsSchema } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** GET {api}/organisations/{orgId}/scim/requests: the last 50 SCIM requests, newest first. */
export function useScimRequests(orgId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.scimRequests(orgId),
    queryFn: ({ signal }) => apiRequest(serviceUrl('api', '/organisations', orgId, 'scim', 'requests'), { schema: scimRequestsSchema, signal }),
    enabled,
    retry: false,
  });
}
