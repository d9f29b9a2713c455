import { scimSetupSchema, type ScimSetup } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

interface RevokeVariables {
  tokenId: string;
  idempotencyKey: string;
}

/** DELETE {api}/organisations/{orgId}/scim/tokens/{tokenId}: answers the tokens left. */
function revokeScimToken(orgId: string, { tokenId, idempotencyKey }: RevokeVariables): Promise<ScimSetup> {
  return apiRequest(serviceUrl('api', '/organisations', orgId, 'scim', 'tokens', tokenId), { method: 'DELETE', schema: scimSetupSchema, idempotencyKey });
}

export function useRevokeScimToken(orgId: string, callbacks?: MutationCallbacks<ScimSetup, RevokeVariables>) {
  return useApiMutation({
    mutationFn: (variables: RevokeVariables) => revokeScimToken(orgId, variables),
    callbacks,
    store: (queryClient, data) => queryClient.setQueryData(queryKeys.scimSetup(orgId), data),
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.scimSetup(orgId) }),
    reloadAfter: 'error',
  });
}
