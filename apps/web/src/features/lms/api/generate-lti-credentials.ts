import { ltiCredentialsSchema, type LtiCredentials } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { LTI_FIELDS, storeLtiCredentials } from './get-lti-credentials.js';

const GENERATE = /* GraphQL */ `
  mutation generateLTICredentials($orgId: ID!) {
    generateLTICredentials(orgId: $orgId) { ${LTI_FIELDS} }
  }
`;

/** generateLTICredentials(orgId): a new key and secret (refused when the organisation has some). */
export function generateLtiCredentials(orgId: string): Promise<LtiCredentials> {
  return graphqlRequest({ query: GENERATE, variables: { orgId }, field: 'generateLTICredentials', schema: ltiCredentialsSchema });
}

/** Generates credentials: the answer replaces the cached ones; after a failure they are read again. */
export function useGenerateLtiCredentials(orgId: string, callbacks: MutationCallbacks<LtiCredentials, void> = {}) {
  return useApiMutation({
    mutationFn: () => generateLtiCredentials(orgId),
    callbacks,
    store: (queryClient, credentials) => storeLtiCredentials(queryClient, orgId, credentials),
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.lti(orgId) }),
    reloadAfter: 'error',
  });
}
