import { librariesArchivedSchema, type LibrariesArchived } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeacherLibraries } from '../../../lib/query-keys.js';

/** POST {api}/{teacherId}/admins/archive/all: the teacher's libraries close; published books stay readable. */
function archiveLibraries(orgId: string, teacherId: string): Promise<LibrariesArchived> {
  return apiRequest(serviceUrl('api', '', teacherId, 'admins', 'archive', 'all'), {
    method: 'POST',
    json: { organisationId: orgId },
    schema: librariesArchivedSchema,
  });
}

/** Closes a teacher's libraries; every teacher's libraries reload after. */
export function useArchiveLibraries(orgId: string, callbacks: MutationCallbacks<LibrariesArchived, string> = {}) {
  return useApiMutation({
    mutationFn: (teacherId: string) => archiveLibraries(orgId, teacherId),
    callbacks,
    reload: (queryClient) => invalidateTeacherLibraries(queryClient, orgId),
  });
}
