import { queryOptions, useQuery } from '@tanstack/react-query';
import { teacherLibrariesSchema } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** GET {api}/{teacherId}: unarchived and archived libraries; the organisation is named in the query. */
function fetchTeacherLibraries(orgId: string, teacherId: string, signal?: AbortSignal) {
  return apiRequest(serviceUrl('api', '', teacherId), { query: { organisationId: orgId }, schema: teacherLibrariesSchema, signal });
}

function teacherLibrariesQueryOptions(orgId: string, teacherId: string) {
  return queryOptions({
    queryKey: [...queryKeys.librariesOfTeacher(orgId, teacherId), 'libraries'] as const,
    queryFn: ({ signal }) => fetchTeacherLibraries(orgId, teacherId, signal),
  });
}

export function useTeacherLibraries(orgId: string, teacherId: string) {
  return useQuery(teacherLibrariesQueryOptions(orgId, teacherId));
}
