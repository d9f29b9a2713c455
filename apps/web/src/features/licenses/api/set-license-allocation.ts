import { licenseAllocationsSchema, type LicenseAllocations } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

export interface SetLicenseAllocationInput {
  licenseId: string;
  schoolId: string;
  seats: number;
  idempotencyKey: string;
}

/**
 * PUT {payments}/v1/admin/organisations/{orgId}/licenses/{licenseId}/allocations/{schoolId} with `{ seats }`
 * (docs/districts.md). A 409 carries the server's reason (more than the district holds, below what the school
 * has assigned), shown as it is.
 */
function setLicenseAllocation(orgId: string, { licenseId, schoolId, seats, idempotencyKey }: SetLicenseAllocationInput): Promise<LicenseAllocations> {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'licenses', licenseId, 'allocations', schoolId), {
    method: 'PUT',
    json: { seats },
    idempotencyKey,
    schema: licenseAllocationsSchema,
  });
}

/** Sets a school's allocation; the district's and the school's licences reload after, whatever the outcome. */
export function useSetLicenseAllocation(orgId: string, callbacks: MutationCallbacks<LicenseAllocations, SetLicenseAllocationInput> = {}) {
  return useApiMutation({
    mutationFn: (input: SetLicenseAllocationInput) => setLicenseAllocation(orgId, input),
    callbacks,
    reload: (queryClient, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.organisation(orgId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.organisation(input.schoolId) }),
      ]),
  });
}
