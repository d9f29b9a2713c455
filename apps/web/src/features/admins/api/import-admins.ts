import { adminsImportedSchema, type AdminsImported } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const IMPORT_ADMINS = /* GraphQL */ `
  mutation importAdmins($orgId: ID!, $emails: [String!]!) {
    importAdmins(orgId: $orgId, emails: $emails) { added existing }
  }
`;

/** importAdmins(orgId, emails): all or nothing. */
export function importAdmins(orgId: string, emails: string[]): Promise<AdminsImported> {
  return graphqlRequest({ query: IMPORT_ADMINS, variables: { orgId, emails }, field: 'importAdmins', schema: adminsImportedSchema });
}

/** Adds admins; the organisation's cached data (the admins list among it) reloads after, whatever the outcome. */
export function useImportAdmins(orgId: string, callbacks: MutationCallbacks<AdminsImported, string[]> = {}) {
  return useApiMutation({
    mutationFn: (emails: string[]) => importAdmins(orgId, emails),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.organisation(orgId) }),
  });
}
