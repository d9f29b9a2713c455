import { ltiCredentialsSchema, type LtiCredentials } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { LTI_FIELDS, storeLtiCredentials } from './get-lti-credentials.js';

/**
 * An LTI credentials mutation, `field(orgId) { … }` answering the credentials after the change: its call, and
 * its hook, whose answer replaces the cached credentials (and, with `readAgainOnError`, a failure reads them again).
 */
export function ltiCredentialsChange(field: 'generateLTICredentials' | 'revokeLTICredentials', options: { readAgainOnError?: boolean } = {}) {
  const document = /* GraphQL */ `
    mutation ${field}($orgId: ID!) {
      ${field}(orgId: $orgId) { ${LTI_FIELDS} }
    }
  `;
  const call = (orgId: string): Promise<LtiCredentials> => graphqlRequest({ query: document, variables: { orgId }, field, schema: ltiCredentialsSchema });
  const useCall = (orgId: string, callbacks: MutationCallbacks<LtiCredentials, void> = {}) =>
    useApiMutation({
      mutationFn: () => call(orgId),
      callbacks,
      store: (queryClient, credentials) => storeLtiCredentials(queryClient, orgId, credentials),
      reload: options.readAgainOnError ? (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.lti(orgId) }) : undefined,
      reloadAfter: 'error',
    });
  return { call, useCall };
}
