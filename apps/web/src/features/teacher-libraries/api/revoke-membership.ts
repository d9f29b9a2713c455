import { membersChangedSchema } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeachers } from '../../../lib/query-keys.js';

const REVOKE_MEMBERSHIP = /* GraphQL */ `
  mutation revokeMembership($orgId: ID!, $memberIds: [ID!]!) {
    revokeMembership(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/** revokeMembership(orgId, memberIds): pending teachers leave the organisation (they have no libraries). */
export async function revokeMembership(orgId: string, memberIds: string[]): Promise<string[]> {
  const result = await graphqlRequest({ query: REVOKE_MEMBERSHIP, variables: { orgId, memberIds }, field: 'revokeMembership', schema: membersChangedSchema });
  return result.memberIds;
}

/** Removes pending teachers; the teacher lists and licence counts reload after. */
export function useRevokeMembership(orgId: string, callbacks: MutationCallbacks<string[], string[]> = {}) {
  return useApiMutation({
    mutationFn: (memberIds: string[]) => revokeMembership(orgId, memberIds),
    callbacks,
    reload: (queryClient) => invalidateTeachers(queryClient, orgId),
  });
}
