import type { TwoStepPolicy } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const twoStepPolicySchema = lazyContract((c) => c.twoStepPolicySchema);

/** PUT {api}/organisations/{orgId}/two-step-policy: admins only; it applies to the admins of the schools below too. */
function setTwoStepPolicy(orgId: string, requireForAdmins: boolean): Promise<TwoStepPolicy> {
  return apiRequest(serviceUrl('api', '/organisations', orgId, 'two-step-policy'), { method: 'PUT', json: { requireForAdmins }, schema: twoStepPolicySchema });
}

/** Changes the policy; the answer replaces the cached one, and the admins list (its 2-step column) reloads. */
export function useSetTwoStepPolicy(orgId: string, callbacks: MutationCallbacks<TwoStepPolicy, { requireForAdmins: boolean }> = {}) {
  return useApiMutation({
    mutationFn: ({ requireForAdmins }: { requireForAdmins: boolean }) => setTwoStepPolicy(orgId, requireForAdmins),
    callbacks,
    store: (queryClient, policy) => queryClient.setQueryData(queryKeys.twoStepPolicy(orgId), policy),
    reloadAfter: 'error',
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.twoStepPolicy(orgId) }),
  });
}
