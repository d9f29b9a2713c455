import { graphqlRequest, lazyContract, useApiMutation, type MutationCallbacks } from '../api/index.js';
import { invalidateTeachers } from '../query-keys.js';

export interface MembersChangeInput {
  memberIds: string[];
  /** One key per user action: the server refuses a replay of it. */
  idempotencyKey?: string;
  /**
   * On a district's list: the members grouped by the organisation each belongs to. Each organisation changes its own
   * (one call each, the action's key followed by the organisation's id), and the members changed are put together.
   */
  groups?: Array<{ orgId: string; memberIds: string[] }>;
}

const membersChangedSchema = lazyContract((c) => c.membersChangedSchema);

/**
 * A membership mutation of the organisation service, `field(orgId, memberIds) { memberIds }` (removeLicenses,
 * grantMembership, revokeMembership): its call, answering the members actually changed, and its hook, after
 * which the teacher lists and the licence counts reload whatever the outcome.
 */
export function membersChange(field: 'removeLicenses' | 'grantMembership' | 'revokeMembership') {
  const document = /* GraphQL */ `
    mutation ${field}($orgId: ID!, $memberIds: [ID!]!) {
      ${field}(orgId: $orgId, memberIds: $memberIds) { memberIds }
    }
  `;
  const call = async (orgId: string, memberIds: string[], idempotencyKey?: string): Promise<string[]> =>
    (await graphqlRequest({ query: document, variables: { orgId, memberIds }, field, schema: membersChangedSchema, idempotencyKey })).memberIds;
  const useCall = (orgId: string, callbacks: MutationCallbacks<string[], MembersChangeInput> = {}) =>
    useApiMutation({
      mutationFn: async ({ memberIds, idempotencyKey, groups }: MembersChangeInput) => {
        if (!groups) return call(orgId, memberIds, idempotencyKey);
        const changed: string[] = [];
        for (const group of groups) {
          changed.push(...(await call(group.orgId, group.memberIds, idempotencyKey && groups.length > 1 ? `${idempotencyKey}:${group.orgId}` : idempotencyKey)));
        }
        return changed;
      },
      callbacks,
      reload: (queryClient) => invalidateTeachers(queryClient, orgId),
    });
  return { call, useCall };
}
