import { useQuery } from '@tanstack/react-query';
import { teacherResourcesSchema } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** GET {api}/teacher-resources: cards, featured books and the links out (docs/resources.md). */
export function useTeacherResources() {
  return useQuery({
    queryKey: queryKeys.teacherResources,
    queryFn: ({ signal }) => apiRequest(serviceUrl('api', '/teacher-resources'), { schema: teacherResourcesSchema, signal }),
    staleTime: 5 * 60_000,
  });
}
