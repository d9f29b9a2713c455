import { importMessages, importTeachersResultSchema, type ImportTeachersResult } from '@quire/core';
import { apiRequest, isApiError, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeachers } from '../../../lib/query-keys.js';

export interface ImportTeachersInput {
  emails: string[];
  /** E-mail → the licence id ticked for it. */
  licenses: Record<string, string>;
  idempotencyKey?: string;
}

/**
 * POST {payments}/v1/admin/organisations/{orgId}/members/import/teachers: the e-mails, and the
 * licence ticked for each (e-mail → licence id).
 */
function importTeachers(orgId: string, { emails, licenses, idempotencyKey }: ImportTeachersInput): Promise<ImportTeachersResult> {
  const url = serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', 'import', 'teachers');
  const json = Object.keys(licenses).length > 0 ? { emails, licenses } : emails;
  return apiRequest(url, { method: 'POST', json, idempotencyKey, schema: importTeachersResultSchema });
}

/** Imports teachers; the teacher lists and licence counts reload after a success. */
export function useImportTeachers(orgId: string, callbacks: MutationCallbacks<ImportTeachersResult, ImportTeachersInput> = {}) {
  return useApiMutation({
    mutationFn: (input: ImportTeachersInput) => importTeachers(orgId, input),
    callbacks,
    reload: (queryClient) => invalidateTeachers(queryClient, orgId),
    reloadAfter: 'success',
  });
}

/** The §8 text for a failed import: 403, 409, anything else. */
export function importErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status === 403) return importMessages.forbidden;
  if (isApiError(error) && error.status === 409) return importMessages.licensesNotGranted;
  return importMessages.failed;
}
