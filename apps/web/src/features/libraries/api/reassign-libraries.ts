import { librariesReassignedSchema, type LibrariesReassigned } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeacherLibraries } from '../../../lib/query-keys.js';

/** Who receives the libraries: a teacher (member id) or an admin (e-mail). */
type TransferTarget = { type: 'teacher'; memberId: string } | { type: 'admin'; email: string };

export interface ReassignInput {
  teacherId: string;
  target: TransferTarget;
}

/** PUT {api}/{teacherId}/admins/owner/all/{newOwnerId}/{type}: every library the teacher owns moves, in one transaction. */
function reassignLibraries(orgId: string, { teacherId, target }: ReassignInput): Promise<LibrariesReassigned> {
  const newOwnerId = target.type === 'teacher' ? target.memberId : target.email;
  return apiRequest(serviceUrl('api', '', teacherId, 'admins', 'owner', 'all', newOwnerId, target.type), {
    method: 'PUT',
    query: { organisationId: orgId },
    schema: librariesReassignedSchema,
  });
}

/** Gives a teacher's libraries to someone else; every teacher's libraries reload after. */
export function useReassignLibraries(orgId: string, callbacks: MutationCallbacks<LibrariesReassigned, ReassignInput> = {}) {
  return useApiMutation({
    mutationFn: (input: ReassignInput) => reassignLibraries(orgId, input),
    callbacks,
    reload: (queryClient) => invalidateTeacherLibraries(queryClient, orgId),
  });
}
