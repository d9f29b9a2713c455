import { adminsImportedSchema, type AdminsImported } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const IMPORT_ADMINS = /* GraphQL */ `
  mutation importAdmins($orgId: ID!, $emails: [String!]!) {
    importAdmins(orgId: $orgId, emails: $emails) { added existing }
  }
`;

/** importAdmins(orgId, emails): all or nothing. The key makes a replay of the same action a refusal. */
function importAdmins(orgId: string, emails: string[], idempotencyKey?: string): Promise<AdminsImported> {
  return graphqlRequest({ query: IMPORT_ADMINS, variables: { orgId, emails }, field: 'importAdmins', schema: adminsImportedSchema, idempotencyKey });
}

/** The e-mails to add, and the dialog's key for this one action. */
export interface ImportAdminsInput {
  emails: string[];
  idempotencyKey: string;
}

/** Adds admins; the organisation's cached data (the admins list among it) reloads after, whatever the outcome. */
export function useImportAdmins(orgId: string, callbacks: MutationCallbacks<AdminsImported, ImportAdminsInput> = {}) {
  return useApiMutation({
    mutationFn: ({ emails, idempotencyKey }: ImportAdminsInput) => importAdmins(orgId, emails, idempotencyKey),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.organisation(orgId) }),
  });
}
