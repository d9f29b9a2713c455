import { adminsRemovedSchema, type AdminEntry } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const DELETE_ADMINS = /* GraphQL */ `
  mutation deleteAdmins($orgId: ID!, $emails: [String!]!) {
    deleteAdmins(orgId: $orgId, emails: $emails) { removed }
  }
`;

/** deleteAdmins(orgId, emails): refused as a whole when no admin would remain; answers the e-mails removed. */
async function deleteAdmins(orgId: string, emails: string[], idempotencyKey?: string): Promise<string[]> {
  const result = await graphqlRequest({ query: DELETE_ADMINS, variables: { orgId, emails }, field: 'deleteAdmins', schema: adminsRemovedSchema, idempotencyKey });
  return result.removed;
}

/** The admins to remove, and the dialog's key for this one action. */
export interface DeleteAdminsInput {
  list: AdminEntry[];
  idempotencyKey: string;
}

/** Removes admins; the organisation's cached data (the admins list and the user's own access) reloads after. */
export function useDeleteAdmins(orgId: string, callbacks: MutationCallbacks<string[], DeleteAdminsInput> = {}) {
  return useApiMutation({
    mutationFn: ({ list, idempotencyKey }: DeleteAdminsInput) => deleteAdmins(orgId, list.map((a) => a.email), idempotencyKey),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.organisation(orgId) }),
  });
}
