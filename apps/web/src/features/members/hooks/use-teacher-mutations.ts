import { genericOperationError, teacherMessages } from '@quire/core';
import { useRemoveLicenses } from '../../../lib/members/remove-licenses.js';
import { errorMessageOf, notifyError, notifyInfo } from '../../../lib/notify.js';
import { useAssignLicense } from '../api/assign-license.js';
import { useGrantMembership } from '../api/grant-membership.js';
import { useUpdateMembershipRole } from '../api/update-membership-role.js';
import { useRunTeacherBulkAction } from '../api/bulk-teachers.js';

const count = (n: number) => (n === 1 ? '1 teacher' : `${n} teachers`);

/** The Teachers screen's changes with their notices; each call's hook reloads what it changed (api/). */
export function useTeacherMutations(orgId: string) {
  const assign = useAssignLicense(orgId, {
    // The server's 409 carries the §5 text; it is shown as it is.
    onError: (error) => notifyError(errorMessageOf(error, genericOperationError('assignLicenses'))),
    // Only the teachers who changed count (those already on the licence did not).
    onSuccess: (result) => notifyInfo(`License assigned to ${count(result.assignedMemberIds.length)}`),
  });

  const remove = useRemoveLicenses(orgId, {
    onError: (error) => notifyError(errorMessageOf(error, genericOperationError('removeLicenses'))),
    onSuccess: (changed) => notifyInfo(`License removed from ${count(changed.length)}`),
  });

  // 'Select all n teachers': the server works out the set; the notice counts the teachers who changed.
  const bulk = useRunTeacherBulkAction(orgId, {
    onError: (error, { action }) =>
      notifyError(errorMessageOf(error, genericOperationError(action.action === 'assign-license' ? 'assignLicenses' : 'removeLicenses'))),
    onSuccess: (result) =>
      notifyInfo(result.action === 'assign-license' ? `License assigned to ${count(result.changed)}` : `License removed from ${count(result.changed)}`),
  });

  const markActive = useGrantMembership(orgId, {
    onError: (error) => notifyError(errorMessageOf(error, genericOperationError('grantMembership'))),
    onSuccess: (changed) => notifyInfo(`${count(changed.length)} marked as active`),
  });

  // Library manager on or off: shown at once, put back with 'Error setting user role' on failure (spec §4).
  const setRole = useUpdateMembershipRole(orgId, { onError: () => notifyError(teacherMessages.roleFailed) });

  return { assign, remove, bulk, markActive, setRole };
}
