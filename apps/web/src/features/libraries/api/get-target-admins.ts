import { queryOptions } from '@tanstack/react-query';
import { adminPageSchema, type AdminEntry } from '@quire/core';
import { graphqlRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** An admin who could receive the libraries; displayName is the teacher's name when they are also a teacher. */
export type TargetAdmin = Pick<AdminEntry, 'email' | 'displayName' | 'memberId' | 'isYou'>;

const GET_TARGET_ADMINS = /* GraphQL */ `
  query getAdmins($orgId: ID!, $pageSize: Int) {
    getAdmins(orgId: $orgId, sort: "email", dir: "asc", page: 1, pageSize: $pageSize) {
      admins { email displayName memberId isYou }
    }
  }
`;

const targetAdminsSchema = adminPageSchema.pick({ admins: true }).extend({
  admins: adminPageSchema.shape.admins.element.pick({ email: true, displayName: true, memberId: true, isYou: true }).array(),
});

/** getAdmins(orgId, sort email): the admins who could receive the libraries (the first hundred). */
export function targetAdminsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: queryKeys.targetAdmins(orgId),
    queryFn: ({ signal }) =>
      graphqlRequest({ query: GET_TARGET_ADMINS, variables: { orgId, pageSize: 100 }, field: 'getAdmins', schema: targetAdminsSchema, signal }).then(
        (page): TargetAdmin[] => page.admins,
      ),
  });
}
