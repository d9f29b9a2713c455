import { ltiCredentialsSchema, type LtiCredentials } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { LTI_FIELDS, storeLtiCredentials } from './get-lti-credentials.js';

const REVOKE = /* GraphQL */ `
  mutation revokeLTICredentials($orgId: ID!) {
    revokeLTICredentials(orgId: $orgId) { ${LTI_FIELDS} }
  }
`;

/** revokeLTICredentials(orgId): launches with the old key are refused at once. */
export function revokeLtiCredentials(orgId: string): Promise<LtiCredentials> {
  return graphqlRequest({ query: REVOKE, variables: { orgId }, field: 'revokeLTICredentials', schema: ltiCredentialsSchema });
}

/** Revokes the credentials: the answer (none generated) replaces the cached ones. */
export function useRevokeLtiCredentials(orgId: string, callbacks: MutationCallbacks<LtiCredentials, void> = {}) {
  return useApiMutation({
    mutationFn: () => revokeLtiCredentials(orgId),
    callbacks,
    store: (queryClient, credentials) => storeLtiCredentials(queryClient, orgId, credentials),
  });
}
