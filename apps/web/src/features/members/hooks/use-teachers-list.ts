import { DEFAULT_PAGE_SIZE, type PageSize } from '@quire/core';
import { useEffect, useState } from 'react';
import type { SortDirection, TeacherSortKey, TeacherStatus } from '@quire/core';
import { useTeachers, type TeacherFilters, type TeachersListQuery } from '../api/get-teachers.js';

/** What a tab asks for first: page 1 of 10, e-mail ascending, no search. */
export const INITIAL_LIST_QUERY: TeachersListQuery = { search: '', sort: 'email', dir: 'asc', page: 1, pageSize: DEFAULT_PAGE_SIZE };

/** The page shown: its number, the cursor it was reached through (if any), and the search it belongs to. */
interface PagePosition {
  page: number;
  after?: string;
  before?: string;
  search: string;
}

/**
 * The list's paging, sorting, search and filters, asked of the server page by page (default: e-mail
 * ascending, 10 rows). A new search, filter, sort or page size starts again at page 1, without a cursor.
 *
 * Paging: the page after the one shown is asked for `after` its answer's nextCursor, the page before
 * it `before` its previousCursor (keyset: as fast at row 50,000 as on page 1), with the page number sent too
 * so the control can show it. Page 1 and any other page (a jump to a page button, the last page) go by number.
 */
export function useTeachersList(orgId: string, status: TeacherStatus, search: string, view?: 'district') {
  const [sort, setSort] = useState<TeacherSortKey>(INITIAL_LIST_QUERY.sort);
  const [dir, setDir] = useState<SortDirection>(INITIAL_LIST_QUERY.dir);
  const [pageSize, setPageSize] = useState<PageSize>(INITIAL_LIST_QUERY.pageSize);
  const [filters, setFilterState] = useState<TeacherFilters>({});
  const [position, setPosition] = useState<PagePosition>({ page: INITIAL_LIST_QUERY.page, search });
  // A new search: page 1 without a cursor, from this render on (no request goes out with the old page's cursor).
  const searched = position.search === search;
  if (!searched) setPosition({ page: 1, search });
  const at: PagePosition = searched ? position : { page: 1, search };
  const cursor = at.after ? { after: at.after } : at.before ? { before: at.before } : {};
  const query: TeachersListQuery = {
    search,
    sort,
    dir,
    page: at.page,
    pageSize,
    ...(Object.keys(filters).length ? { filters } : {}),
    ...(view ? { view } : {}),
    ...cursor,
  };
  const result = useTeachers(orgId, status, query);
  // The answer for the page shown, not the previous page kept on screen while it loads.
  const shown = result.isPlaceholderData ? undefined : result.data;

  /** Page `page`: through a cursor when it is the next or previous one of the page shown, else by its number. */
  const setPage = (page: number) => {
    const step =
      page > 1 && page === at.page + 1 && shown?.nextCursor
        ? { after: shown.nextCursor }
        : page > 1 && page === at.page - 1 && shown?.previousCursor
          ? { before: shown.previousCursor }
          : {};
    setPosition({ page, search, ...step });
  };

  // Teachers who leave the list (switched, re-activated) can empty the last page: step back, by number.
  const emptyPage = shown?.members.length === 0 && at.page > 1;
  useEffect(() => {
    if (emptyPage) setPosition((p) => ({ page: Math.max(1, Math.min(p.page - 1, Math.ceil((shown?.total ?? 0) / pageSize))), search: p.search }));
  }, [emptyPage, shown?.total, pageSize]);

  const firstPage = () => setPosition({ page: 1, search });

  const sortBy = (key: TeacherSortKey) => {
    if (key === sort) setDir(dir === 'asc' ? 'desc' : 'asc');
    else {
      setSort(key);
      setDir('asc');
    }
    firstPage();
  };

  const changePageSize = (size: PageSize) => {
    setPageSize(size);
    firstPage();
  };

  const setFilters = (next: TeacherFilters) => {
    // Unset choices are left out, so the query (and its cache key) stays the same as without them.
    setFilterState(Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) as TeacherFilters);
    firstPage();
  };

  return { query, filters, result, sortBy, setPage, changePageSize, setFilters };
}
