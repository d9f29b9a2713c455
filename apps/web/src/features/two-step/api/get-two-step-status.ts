import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const twoStepStatusSchema = lazyContract((c) => c.twoStepStatusSchema);

/** GET {api}/two-step: the signed-in person's 2-step verification (never a secret or a code). */
function twoStepStatusQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.twoStepStatus,
    queryFn: ({ signal }) => apiRequest(serviceUrl('api', '/two-step'), { schema: twoStepStatusSchema, signal }),
  });
}

export function useTwoStepStatus() {
  return useQuery(twoStepStatusQueryOptions());
}
