import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { teacherLibrariesSchema } from './library-schemas.js';

/** Every cached library list and book count of one teacher (reloaded after a transfer or a visit). */
export const teacherLibrariesRoot = (orgId: string, teacherId: string) => ['teacher-libraries', orgId, teacherId] as const;

/** GET {api}/{teacherId}: unarchived and archived libraries; the organisation is named in the query. */
export function fetchTeacherLibraries(orgId: string, teacherId: string, signal?: AbortSignal) {
  return apiRequest(serviceUrl('api', '', teacherId), { query: { organisationId: orgId }, schema: teacherLibrariesSchema, signal });
}

export function teacherLibrariesQueryOptions(orgId: string, teacherId: string) {
  return queryOptions({
    queryKey: [...teacherLibrariesRoot(orgId, teacherId), 'libraries'] as const,
    queryFn: ({ signal }) => fetchTeacherLibraries(orgId, teacherId, signal),
  });
}

export function useTeacherLibraries(orgId: string, teacherId: string) {
  return useQuery(teacherLibrariesQueryOptions(orgId, teacherId));
}
