import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { membersPageSchema, type PageSize, type SortDirection, type TeacherListFilter, type TeacherSortKey, type TeacherStatus } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** The on-screen filters (issue 15): signed up, licence ('none' for no licence), certification. */
export type TeacherFilters = Omit<TeacherListFilter, 'search'>;

/** What the table asks the server for: it never loads the whole organisation. */
export interface TeachersListQuery {
  search: string;
  sort: TeacherSortKey;
  dir: SortDirection;
  page: number;
  pageSize: PageSize;
  /** Absent or empty: no filter. */
  filters?: TeacherFilters;
}

/** The list's filters as the server takes them: the search (trimmed) and the on-screen filters. */
export function listFilterOf(query: Pick<TeachersListQuery, 'search' | 'filters'>): TeacherListFilter {
  const search = query.search.trim();
  return { ...(search ? { search } : {}), ...query.filters };
}

const listPath = (status: TeacherStatus) => (status === 'active' ? 'teachers' : 'inactive-teachers');

/** GET {payments}/v1/admin/organisations/{orgId}/members/teachers (or inactive-teachers), one page. */
export function fetchTeachers(orgId: string, status: TeacherStatus, query: TeachersListQuery, signal?: AbortSignal) {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', listPath(status)), {
    query: { ...listFilterOf(query), sort: query.sort, dir: query.dir, page: query.page, pageSize: query.pageSize },
    schema: membersPageSchema,
    signal,
  });
}

export function teachersQueryOptions(orgId: string, status: TeacherStatus, query: TeachersListQuery) {
  return queryOptions({
    queryKey: queryKeys.teachersPage(orgId, status, query),
    queryFn: ({ signal }) => fetchTeachers(orgId, status, query, signal),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useTeachers(orgId: string, status: TeacherStatus, query: TeachersListQuery) {
  return useQuery(teachersQueryOptions(orgId, status, query));
}
