import { adminsRemovedSchema, type AdminEntry } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const DELETE_ADMINS = /* GraphQL */ `
  mutation deleteAdmins($orgId: ID!, $emails: [String!]!) {
    deleteAdmins(orgId: $orgId, emails: $emails) { removed }
  }
`;

/** deleteAdmins(orgId, emails): refused as a whole when no admin would remain; answers the e-mails removed. */
export async function deleteAdmins(orgId: string, emails: string[]): Promise<string[]> {
  const result = await graphqlRequest({ query: DELETE_ADMINS, variables: { orgId, emails }, field: 'deleteAdmins', schema: adminsRemovedSchema });
  return result.removed;
}

/** Removes admins; the organisation's cached data (the admins list and the user's own access) reloads after. */
export function useDeleteAdmins(orgId: string, callbacks: MutationCallbacks<string[], AdminEntry[]> = {}) {
  return useApiMutation({
    mutationFn: (admins: AdminEntry[]) => deleteAdmins(orgId, admins.map((a) => a.email)),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.organisation(orgId) }),
  });
}
