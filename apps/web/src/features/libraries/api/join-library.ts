import { joinLibraryResultSchema, type JoinLibraryResult } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

export interface JoinLibraryInput {
  teacherId: string;
  libraryId: string;
  /** The reason sent to the library owner; left out on a repeat visit. */
  reason?: string;
}

/**
 * POST {api}/{teacherId}/admins/{libraryId}/join {reason}: answers a single-use sign-in token and the link to the
 * library in the product app that carries it (spec §4), so the product signs the admin in.
 */
function joinLibrary(orgId: string, { teacherId, libraryId, reason }: JoinLibraryInput): Promise<JoinLibraryResult> {
  return apiRequest(serviceUrl('api', '', teacherId, 'admins', libraryId, 'join'), {
    method: 'POST',
    json: { organisationId: orgId, ...(reason ? { reason } : {}) },
    schema: joinLibraryResultSchema,
  });
}

/** Joins (visits) a library; the teacher's libraries reload, so the next visit asks no reason. */
export function useJoinLibrary(orgId: string, callbacks: MutationCallbacks<JoinLibraryResult, JoinLibraryInput> = {}) {
  return useApiMutation({
    mutationFn: (input: JoinLibraryInput) => joinLibrary(orgId, input),
    callbacks,
    reload: (queryClient, { teacherId }) => queryClient.invalidateQueries({ queryKey: queryKeys.librariesOfTeacher(orgId, teacherId) }),
    reloadAfter: 'success',
  });
}
