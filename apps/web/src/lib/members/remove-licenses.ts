import { membersChangedSchema } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../api/index.js';
import { invalidateTeachers } from '../query-keys.js';

const REMOVE_LICENSES = /* GraphQL */ `
  mutation removeLicenses($orgId: ID!, $memberIds: [ID!]!) {
    removeLicenses(orgId: $orgId, memberIds: $memberIds) { memberIds }
  }
`;

/**
 * removeLicenses(orgId, memberIds): the teachers lose their licence (never in a domain organisation). Shared by
 * the Teachers screen ('Remove license') and the library screens ('Revoke premium license'). Answers the
 * members actually changed.
 */
export async function removeLicenses(orgId: string, memberIds: string[], idempotencyKey?: string): Promise<string[]> {
  const result = await graphqlRequest({ query: REMOVE_LICENSES, variables: { orgId, memberIds }, field: 'removeLicenses', schema: membersChangedSchema, idempotencyKey });
  return result.memberIds;
}

export interface RemoveLicensesInput {
  memberIds: string[];
  idempotencyKey?: string;
}

/** Removes licences; the teacher lists and the licence counts reload after, whatever the outcome. */
export function useRemoveLicenses(orgId: string, callbacks: MutationCallbacks<string[], RemoveLicensesInput> = {}) {
  return useApiMutation({
    mutationFn: ({ memberIds, idempotencyKey }: RemoveLicensesInput) => removeLicenses(orgId, memberIds, idempotencyKey),
    callbacks,
    reload: (queryClient) => invalidateTeachers(queryClient, orgId),
  });
}
