import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { membersPageSchema, type PageSize, type SortDirection, type TeacherListFilter, type TeacherSortKey, type TeacherStatus } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** The on-screen filters: signed up, licence ('none' for no licence), certification, and on a district's list its School. */
export type TeacherFilters = Omit<TeacherListFilter, 'search' | 'view'>;

/** What the table asks the server for: it never loads the whole organisation. */
export interface TeachersListQuery {
  search: string;
  sort: TeacherSortKey;
  dir: SortDirection;
  page: number;
  pageSize: PageSize;
  /** Absent or empty: no filter. */
  filters?: TeacherFilters;
  /** 'district': the district's teachers and every school's under it, each with its school (docs/districts.md). */
  view?: 'district';
  /**
   * A previous answer's nextCursor (Next) or previousCursor (Previous): the page after or before that row, as fast
   * however deep (keyset); `page` is then only the number shown. Absent: `page` is read as a number (OFFSET).
   */
  after?: string;
  before?: string;
}

/** Where the page starts: after or before a cursor, or at its page number. */
export function pageWindowOf(query: Pick<TeachersListQuery, 'page' | 'pageSize' | 'after' | 'before'>) {
  const cursor = query.after ? { after: query.after } : query.before ? { before: query.before } : {};
  return { page: query.page, pageSize: query.pageSize, ...cursor };
}

/** The list's filters as the server takes them: the search (trimmed) and the on-screen filters. */
export function listFilterOf(query: Pick<TeachersListQuery, 'search' | 'filters' | 'view'>): TeacherListFilter {
  const search = query.search.trim();
  return { ...(search ? { search } : {}), ...query.filters, ...(query.view ? { view: query.view } : {}) };
}

const listPath = (status: TeacherStatus) => (status === 'active' ? 'teachers' : 'inactive-teachers');

/** GET {payments}/v1/admin/organisations/{orgId}/members/teachers (or inactive-teachers), one page. */
export function fetchTeachers(orgId: string, status: TeacherStatus, query: TeachersListQuery, signal?: AbortSignal) {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', listPath(status)), {
    query: { ...listFilterOf(query), sort: query.sort, dir: query.dir, ...pageWindowOf(query) },
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
