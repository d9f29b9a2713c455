import { graphqlRequest } from '../../../lib/api/index.js';

const IMPORT_ADMINS = /* GraphQL */ `
  mutation importAdmins($orgId: ID!, $emails: [String!]!) {
    importAdmins(orgId: $orgId, emails: $emails) { added existing }
  }
`;

const DELETE_ADMINS = /* GraphQL */ `
  mutation deleteAdmins($orgId: ID!, $emails: [String!]!) {
    deleteAdmins(orgId: $orgId, emails: $emails) { removed }
  }
`;

export interface AdminsImported {
  added: string[];
  /** Already admins: left unchanged. */
  existing: string[];
}

/** importAdmins(orgId, emails): all or nothing. The key makes a replay of the same action a refusal (issue 15). */
export async function importAdmins(orgId: string, emails: string[], idempotencyKey?: string): Promise<AdminsImported> {
  const data = await graphqlRequest<{ importAdmins: AdminsImported }>({ query: IMPORT_ADMINS, variables: { orgId, emails }, idempotencyKey });
  return data.importAdmins;
}

/** deleteAdmins(orgId, emails): refused as a whole when no admin would remain. */
export async function deleteAdmins(orgId: string, emails: string[], idempotencyKey?: string): Promise<string[]> {
  const data = await graphqlRequest<{ deleteAdmins: { removed: string[] } }>({ query: DELETE_ADMINS, variables: { orgId, emails }, idempotencyKey });
  return data.deleteAdmins.removed;
}
