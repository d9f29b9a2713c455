import { importMessages } from '@quire/core';
import { apiRequest, isApiError, serviceUrl } from '../../../lib/api/index.js';

export interface ImportedMember {
  id: string;
  email: string;
}

export interface ImportTeachersResult {
  newMembers: ImportedMember[];
  existingMembers: ImportedMember[];
  licensesNotGranted?: Array<{ email: string; licenseId: string }>;
}

/**
 * POST {payments}/v1/admin/organisations/{orgId}/members/import/teachers: the e-mails, and the
 * licence ticked for each (e-mail → licence id).
 */
export function importTeachers(orgId: string, emails: string[], licenses: Record<string, string>, idempotencyKey?: string): Promise<ImportTeachersResult> {
  const url = serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', 'import', 'teachers');
  const json = Object.keys(licenses).length > 0 ? { emails, licenses } : emails;
  return apiRequest<ImportTeachersResult>(url, { method: 'POST', json, idempotencyKey });
}

/** The §8 text for a failed import: 403, 409, anything else. */
export function importErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status === 403) return importMessages.forbidden;
  if (isApiError(error) && error.status === 409) return importMessages.licensesNotGranted;
  return importMessages.failed;
}
