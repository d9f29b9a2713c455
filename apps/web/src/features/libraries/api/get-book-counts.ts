import { queryOptions, useQuery } from '@tanstack/react-query';
import { bookCountsSchema } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** GET {payments}/v1/admin/organisations/{orgId}/members/{teacherId}/book-counts: owned, private, total. */
function fetchBookCounts(orgId: string, teacherId: string, signal?: AbortSignal) {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', teacherId, 'book-counts'), {
    schema: bookCountsSchema,
    signal,
  });
}

function bookCountsQueryOptions(orgId: string, teacherId: string) {
  return queryOptions({
    queryKey: [...queryKeys.librariesOfTeacher(orgId, teacherId), 'book-counts'] as const,
    queryFn: ({ signal }) => fetchBookCounts(orgId, teacherId, signal),
  });
}

export function useBookCounts(orgId: string, teacherId: string) {
  return useQuery(bookCountsQueryOptions(orgId, teacherId));
}
