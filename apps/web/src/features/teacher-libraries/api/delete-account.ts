import { apiRequest, graphqlRequest, serviceUrl } from '../../../lib/api/index.js';
import { deleteCheckSchema, type DeleteCheck } from './library-schemas.js';

/** POST {api}/admin-tools/v2/{teacherId}/users/delete-check: may the account go, and if not, why. */
export function checkDelete(orgId: string, teacherId: string): Promise<DeleteCheck> {
  return apiRequest(serviceUrl('api', '/admin-tools/v2', teacherId, 'users', 'delete-check'), {
    method: 'POST',
    json: { organisationId: orgId },
    schema: deleteCheckSchema,
  });
}

/** What happens to the shared libraries as the account goes; the server does it in the same transaction. */
export type LibrariesOnArchive = { action: 'archive' } | { action: 'teacher' | 'admin'; newOwnerId: string };

/**
 * POST {api}/admin-tools/v2/{teacherId}/users/archive {organisationId, organisationName, libraries}: the libraries
 * move or close and the teacher moves to Inactive, all in one transaction (nothing half-done).
 */
export async function archiveUser(orgId: string, organisationName: string, teacherId: string, libraries?: LibrariesOnArchive): Promise<void> {
  await apiRequest(serviceUrl('api', '/admin-tools/v2', teacherId, 'users', 'archive'), {
    method: 'POST',
    json: libraries ? { organisationId: orgId, organisationName, libraries } : { organisationId: orgId, organisationName },
  });
}

const REVOKE_MEMBERSHIP = /* GraphQL */ `
  mutation revokeMembership($orgId: ID!, $memberIds: [ID!]!) {
    revokeMembership(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/** revokeMembership(orgId, memberIds): pending teachers leave the organisation (they have no libraries). */
export async function revokeMembership(orgId: string, memberIds: string[]): Promise<string[]> {
  const data = await graphqlRequest<{ revokeMembership: { memberIds: string[] } }>({ query: REVOKE_MEMBERSHIP, variables: { orgId, memberIds } });
  return data.revokeMembership.memberIds;
}

const REMOVE_LICENSES = /* GraphQL */ `
  mutation removeLicenses($orgId: ID!, $memberIds: [ID!]!) {
    removeLicenses(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/** 'Revoke premium license': the teacher is downgraded to the free plan. */
export async function revokeLicense(orgId: string, memberId: string): Promise<void> {
  await graphqlRequest<{ removeLicenses: { memberIds: string[] } }>({ query: REMOVE_LICENSES, variables: { orgId, memberIds: [memberId] } });
}
