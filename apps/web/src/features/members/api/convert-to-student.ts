import { convertToStudentResultSchema, DEFAULT_MY_BOOKS_LIBRARY_NAME, type ConvertToStudentResult } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';

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
