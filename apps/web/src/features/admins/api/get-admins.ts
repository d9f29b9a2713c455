import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PageSize } from '@quire/core';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/api/index.js';

/** One admin (spec §3 Admin): e-mail and organisation, plus what the server knows of them. */
export const adminEntrySchema = z.object({
  email: z.string(),
  organisationId: z.string(),
  organisationName: z.string(),
  userId: z.string().nullable(),
  memberId: z.string().nullable(),
  displayName: z.string().nullable(),
  /** The signed-in user. */
  isYou: z.boolean(),
});
export type AdminEntry = z.infer<typeof adminEntrySchema>;

export const adminPageSchema = z.object({
  admins: z.array(adminEntrySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type AdminPage = z.infer<typeof adminPageSchema>;

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
      admins { email organisationId organisationName userId memberId displayName isYou }
      total
      page
      pageSize
    }
  }
`;

/** Every cached page of an organisation's admins: reloaded after a change. */
export const adminsQueryRoot = (orgId: string) => ['organisation', orgId, 'admins'] as const;

export function adminsQueryOptions(orgId: string, query: AdminsListQuery) {
  return queryOptions({
    queryKey: [...adminsQueryRoot(orgId), query] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ getAdmins: unknown }>({
        query: GET_ADMINS,
        variables: { orgId, sort: 'email', dir: query.dir, page: query.page, pageSize: query.pageSize },
        signal,
      });
      return adminPageSchema.parse(data.getAdmins);
    },
    placeholderData: keepPreviousData,
  });
}

export function useAdmins(orgId: string, query: AdminsListQuery) {
  return useQuery(adminsQueryOptions(orgId, query));
}
