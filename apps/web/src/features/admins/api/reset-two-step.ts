import { apiRequest, lazyContract, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const twoStepChangedSchema = lazyContract((c) => c.twoStepChangedSchema);

/**
 * POST {api}/organisations/{orgId}/admins/{userId}/two-step/reset: another admin's authenticator app, recovery codes
 * and trusted devices are removed and their sessions end (a lost phone); recorded and mailed to them.
 */
async function resetTwoStep(orgId: string, userId: string): Promise<void> {
  await apiRequest(serviceUrl('api', '/organisations', orgId, 'admins', userId, 'two-step', 'reset'), { method: 'POST', json: {}, schema: twoStepChangedSchema });
}

/** Resets an admin's 2-step verification; the admins list reloads after (its 2-step column changes). */
export function useResetTwoStep(orgId: string, callbacks: MutationCallbacks<void, { userId: string }> = {}) {
  return useApiMutation({
    mutationFn: ({ userId }: { userId: string }) => resetTwoStep(orgId, userId),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.admins(orgId) }),
  });
}
