import { useMutation } from '@tanstack/react-query';
import { deleteCheckSchema, type DeleteCheck } from '@quire/core';
import { apiRequest, serviceUrl, type MutationCallbacks } from '../../../lib/api/index.js';

/** POST {api}/admin-tools/v2/{teacherId}/users/delete-check: may the account go, and if not, why. */
function checkDelete(orgId: string, teacherId: string): Promise<DeleteCheck> {
  return apiRequest(serviceUrl('api', '/admin-tools/v2', teacherId, 'users', 'delete-check'), {
    method: 'POST',
    json: { organisationId: orgId },
    schema: deleteCheckSchema,
  });
}

/** Asks whether a teacher may be deleted; it changes nothing, so nothing is reloaded. */
export function useCheckDelete(orgId: string, callbacks: MutationCallbacks<DeleteCheck, string> = {}) {
  return useMutation({ mutationFn: (teacherId: string) => checkDelete(orgId, teacherId), ...callbacks });
}
