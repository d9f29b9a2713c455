import { generatedScimTokenSchema, type GeneratedScimToken } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** POST {api}/organisations/{orgId}/scim/tokens: a new token, answered once. */
function generateScimToken(orgId: string, idempotencyKey: string): Promise<GeneratedScimToken> {
  return apiRequest(serviceUrl('api', '/organisations', orgId, 'scim', 'tokens'), { method: 'POST', schema: generatedScimTokenSchema, idempotencyKey });
}

export function useGenerateScimToken(orgId: string, callbacks?: MutationCallbacks<GeneratedScimToken, string>) {
  return useApiMutation({
    mutationFn: (idempotencyKey: string) => generateScimToken(orgId, idempotencyKey),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.scimSetup(orgId) }),
  });
}
