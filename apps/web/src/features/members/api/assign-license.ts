import { licenseAssignmentSchema, type LicenseAssignment } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeachers } from '../../../lib/query-keys.js';

export interface AssignLicenseInput {
  licenseId: string;
  memberIds: string[];
  idempotencyKey?: string;
}

/**
 * PUT {payments}/v1/admin/organisations/{orgId}/licenses/{licenseId} with the member ids (spec §7).
 * A 409 carries the §5 text ('Not enough {n} book licenses available…'), shown as it is.
 */
function assignLicense(orgId: string, { licenseId, memberIds, idempotencyKey }: AssignLicenseInput): Promise<LicenseAssignment> {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'licenses', licenseId), {
    method: 'PUT',
    json: memberIds,
    idempotencyKey,
    schema: licenseAssignmentSchema,
  });
}

/** Assigns a licence; the teacher lists and the licence counts reload after, whatever the outcome. */
export function useAssignLicense(orgId: string, callbacks: MutationCallbacks<LicenseAssignment, AssignLicenseInput> = {}) {
  return useApiMutation({ mutationFn: (input: AssignLicenseInput) => assignLicense(orgId, input), callbacks, reload: (queryClient) => invalidateTeachers(queryClient, orgId) });
}
