import { userArchivedSchema, type LibrariesOnArchive, type UserArchived } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeacherLibraries } from '../../../lib/query-keys.js';

export interface ArchiveUserInput {
  teacherId: string;
  /** What happens to the shared libraries as the account goes (absent: they are archived). */
  libraries?: LibrariesOnArchive;
}

/**
 * POST {api}/admin-tools/v2/{teacherId}/users/archive {organisationId, organisationName, libraries}: the libraries
 * move or close and the teacher moves to Inactive, all in one transaction (nothing half-done).
 */
function archiveUser(orgId: string, organisationName: string, { teacherId, libraries }: ArchiveUserInput): Promise<UserArchived> {
  return apiRequest(serviceUrl('api', '/admin-tools/v2', teacherId, 'users', 'archive'), {
    method: 'POST',
    json: libraries ? { organisationId: orgId, organisationName, libraries } : { organisationId: orgId, organisationName },
    schema: userArchivedSchema,
  });
}

/** Deletes a teacher's account from the organisation; every teacher's libraries reload after. */
export function useArchiveUser(orgId: string, organisationName: string, callbacks: MutationCallbacks<UserArchived, ArchiveUserInput> = {}) {
  return useApiMutation({
    mutationFn: (input: ArchiveUserInput) => archiveUser(orgId, organisationName, input),
    callbacks,
    reload: (queryClient) => invalidateTeacherLibraries(queryClient, orgId),
  });
}
