import { membersChangedSchema } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeachers } from '../../../lib/query-keys.js';

const GRANT_MEMBERSHIP = /* GraphQL */ `
  mutation grantMembership($orgId: ID!, $memberIds: [ID!]!) {
    grantMembership(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/** Mark as Active: removed teachers come back, without a licence. Answers the members actually changed. */
export async function grantMembership(orgId: string, memberIds: string[], idempotencyKey?: string): Promise<string[]> {
  const result = await graphqlRequest({ query: GRANT_MEMBERSHIP, variables: { orgId, memberIds }, field: 'grantMembership', schema: membersChangedSchema, idempotencyKey });
  return result.memberIds;
}

export interface GrantMembershipInput {
  memberIds: string[];
  idempotencyKey?: string;
}

/** Marks teachers active; the teacher lists and licence counts reload after, whatever the outcome. */
export function useGrantMembership(orgId: string, callbacks: MutationCallbacks<string[], GrantMembershipInput> = {}) {
  return useApiMutation({
    mutationFn: ({ memberIds, idempotencyKey }: GrantMembershipInput) => grantMembership(orgId, memberIds, idempotencyKey),
    callbacks,
    reload: (queryClient) => invalidateTeachers(queryClient, orgId),
  });
}
