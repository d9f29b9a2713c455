import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminPageSchema, type PageSize } from '@quire/core';
import { graphqlRequest } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

export type AdminSortDirection = 'asc' | 'desc';

export interface AdminsListQuery {
  /** Sorted by e-mail (spec §9: e-mail ascending by default). */
  dir: AdminSortDirection;
  page: number;
  pageSize: PageSize;
}

const GET_ADMINS = /* GraphQL */ `
  query getAdmins($orgId: ID!, $sort: String, $dir: String, $page: Int, $pageSize: Int) {
    getAdmins(orgId: $orgId, sort: $sort, dir: $dir, page: $page, pageSize: $pageSize) {
      admins { email organisationId organisationName inherited userId memberId displayName isYou twoStep }
      total
      page
      pageSize
    }
  }
`;

/** getAdmins(orgId, sort, dir, page, pageSize): one page of the organisation's admins. */
function adminsQueryOptions(orgId: string, query: AdminsListQuery) {
  return queryOptions({
    queryKey: queryKeys.adminsPage(orgId, query),
    queryFn: ({ signal }) =>
      graphqlRequest({
        query: GET_ADMINS,
        variables: { orgId, sort: 'email', dir: query.dir, page: query.page, pageSize: query.pageSize },
        field: 'getAdmins',
        schema: adminPageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useAdmins(orgId: string, query: AdminsListQuery) {
  return useQuery(adminsQueryOptions(orgId, query));
}
