import { convertToStudentResultSchema, DEFAULT_MY_BOOKS_LIBRARY_NAME, type ConvertToStudentResult } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeachers } from '../../../lib/query-keys.js';

/**
 * POST {api}/users/v2/{userId}/convert-to-student {myBooksLibraryName: 'My books'} (spec §7). The
 * organisation is named too, for a teacher in several of the admin's organisations.
 */
export function convertToStudent(orgId: string, memberId: string, idempotencyKey?: string): Promise<ConvertToStudentResult> {
  return apiRequest(serviceUrl('api', '/users/v2', memberId, 'convert-to-student'), {
    method: 'POST',
    idempotencyKey,
    json: { myBooksLibraryName: DEFAULT_MY_BOOKS_LIBRARY_NAME, organisationId: orgId },
    schema: convertToStudentResultSchema,
  });
}

/** One teacher to switch, with the key of this one request (a replay is refused, issue 15). */
export interface ConvertToStudentInput {
  memberId: string;
  idempotencyKey: string;
}

/** Switches a teacher to a student; the teacher lists and licence counts reload after. */
export function useConvertToStudent(orgId: string, callbacks: MutationCallbacks<ConvertToStudentResult, ConvertToStudentInput> = {}) {
  return useApiMutation({
    mutationFn: ({ memberId, idempotencyKey }: ConvertToStudentInput) => convertToStudent(orgId, memberId, idempotencyKey),
    callbacks,
    reload: (queryClient) => invalidateTeachers(queryClient, orgId),
  });
}
