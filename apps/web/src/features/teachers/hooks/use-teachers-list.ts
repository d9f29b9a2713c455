import { DEFAULT_PAGE_SIZE, type PageSize } from '@quire/core';
import { useEffect, useState } from 'react';
import type { SortDirection, TeacherSortKey, TeacherStatus } from '@quire/core';
import { useTeachers, type TeacherFilters, type TeachersListQuery } from '../api/get-teachers.js';

/** What a tab asks for first: page 1 of 10, e-mail ascending, no search. */
export const INITIAL_LIST_QUERY: TeachersListQuery = { search: '', sort: 'email', dir: 'asc', page: 1, pageSize: DEFAULT_PAGE_SIZE };

/**
 * The list's paging, sorting, search and filters, asked of the server page by page (default: e-mail
 * ascending, 10 rows). A new search, filter, sort or page size starts again at page 1.
 */
export function useTeachersList(orgId: string, status: TeacherStatus, search: string) {
  const [sort, setSort] = useState<TeacherSortKey>(INITIAL_LIST_QUERY.sort);
  const [dir, setDir] = useState<SortDirection>(INITIAL_LIST_QUERY.dir);
  const [page, setPage] = useState(INITIAL_LIST_QUERY.page);
  const [pageSize, setPageSize] = useState<PageSize>(INITIAL_LIST_QUERY.pageSize);
  const [filters, setFilterState] = useState<TeacherFilters>({});
  const query: TeachersListQuery = { search, sort, dir, page, pageSize, ...(Object.keys(filters).length ? { filters } : {}) };
  const result = useTeachers(orgId, status, query);

  useEffect(() => setPage(1), [search]);

  // Teachers who leave the list (switched, re-activated) can empty the last page: step back.
  const emptyPage = !result.isPlaceholderData && result.data?.members.length === 0 && page > 1;
  useEffect(() => {
    if (emptyPage) setPage((p) => Math.max(1, Math.min(p - 1, Math.ceil((result.data?.total ?? 0) / pageSize))));
  }, [emptyPage, result.data?.total, pageSize]);

  const sortBy = (key: TeacherSortKey) => {
    if (key === sort) setDir(dir === 'asc' ? 'desc' : 'asc');
    else {
      setSort(key);
      setDir('asc');
    }
    setPage(1);
  };

  const changePageSize = (size: PageSize) => {
    setPageSize(size);
    setPage(1);
  };

  const setFilters = (next: TeacherFilters) => {
    // Unset choices are left out, so the query (and its cache key) stays the same as without them.
    setFilterState(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as TeacherFilters);
    setPage(1);
  };

  return { query, filters, result, sortBy, setPage, changePageSize, setFilters };
}
