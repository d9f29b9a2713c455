import { useMutation, useQueryClient } from '@tanstack/react-query';
import { membershipRoleSchema, type MembershipRole, type MembersPage } from '@quire/core';
import { graphqlRequest, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const UPDATE_MEMBERSHIP_ROLE = /* GraphQL */ `
  mutation updateMembershipRole($orgId: ID!, $userId: ID!, $role: Int!) {
    updateMembershipRole(orgId: $orgId, userId: $userId, role: $role) { memberId role }
  }
`;

export interface RoleChange {
  memberId: string;
  role: number;
}

/** Library manager (400) or teacher (600); userId is the member id. */
function updateMembershipRole(orgId: string, { memberId, role }: RoleChange): Promise<MembershipRole> {
  return graphqlRequest({
    query: UPDATE_MEMBERSHIP_ROLE,
    variables: { orgId, userId: memberId, role },
    field: 'updateMembershipRole',
    schema: membershipRoleSchema,
  });
}

/**
 * Library manager on or off, shown at once in every cached page of the lists; a failure puts the cached
 * pages back as they were (spec §4: 'Error setting user role').
 */
export function useUpdateMembershipRole(orgId: string, callbacks: MutationCallbacks<MembershipRole, RoleChange> = {}) {
  const queryClient = useQueryClient();
  const lists = { queryKey: queryKeys.teachers(orgId) };
  return useMutation({
    mutationFn: (change: RoleChange) => updateMembershipRole(orgId, change),
    ...callbacks,
    onMutate: async (change, context) => {
      await callbacks.onMutate?.(change, context);
      await queryClient.cancelQueries(lists);
      const before = queryClient.getQueriesData<MembersPage>(lists);
      queryClient.setQueriesData<MembersPage>(lists, (page) =>
        page ? { ...page, members: page.members.map((m) => (m.id === change.memberId ? { ...m, role: change.role } : m)) } : page,
      );
      return { before };
    },
    onError: (...args) => {
      const snapshot = args[2] as { before?: Array<[readonly unknown[], MembersPage | undefined]> } | undefined;
      for (const [key, data] of snapshot?.before ?? []) queryClient.setQueryData(key, data);
      return callbacks.onError?.(...args);
    },
  });
}
