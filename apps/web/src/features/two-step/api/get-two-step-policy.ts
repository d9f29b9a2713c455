import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const twoStepPolicySchema = lazyContract((c) => c.twoStepPolicySchema);

/** GET {api}/organisations/{orgId}/two-step-policy: its own 'Require 2-step verification for admins', and the district's. */
function twoStepPolicyQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: queryKeys.twoStepPolicy(orgId),
    queryFn: ({ signal }) => apiRequest(serviceUrl('api', '/organisations', orgId, 'two-step-policy'), { schema: twoStepPolicySchema, signal }),
  });
}

export function useTwoStepPolicy(orgId: string) {
  return useQuery(twoStepPolicyQueryOptions(orgId));
}
