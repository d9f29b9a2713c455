import { genericOperationError, teacherMessages } from '@quire/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessageOf, notifyError, notifyInfo } from '../../../lib/notify.js';
import type { TeacherBulkAction } from '@quire/core';
import { assignLicense } from '../api/assign-license.js';
import { runTeacherBulkAction } from '../api/bulk-teachers.js';
import { teachersQueryRoot } from '../api/get-teachers.js';
import { grantMembership, removeLicenses, updateMembershipRole } from '../api/membership-mutations.js';
import { refreshAfterChange } from '../api/refresh-after-change.js';
import type { MembersPage } from '../api/teacher-schemas.js';

const count = (n: number) => (n === 1 ? '1 teacher' : `${n} teachers`);

/** The Teachers screen's changes, each followed by a reload of the lists and licence counts. */
export function useTeacherMutations(orgId: string) {
  const queryClient = useQueryClient();
  const refresh = () => refreshAfterChange(queryClient, orgId);

  const assign = useMutation({
    mutationFn: ({ licenseId, memberIds, idempotencyKey }: { licenseId: string; memberIds: string[]; idempotencyKey?: string }) =>
      assignLicense(orgId, licenseId, memberIds, idempotencyKey),
    // The server's 409 carries the §5 text; it is shown as it is.
    onError: (error) => notifyError(errorMessageOf(error, genericOperationError('assignLicenses'))),
    // Only the teachers who changed count (those already on the licence did not).
    onSuccess: (result) => notifyInfo(`License assigned to ${count(result.assignedMemberIds.length)}`),
    onSettled: refresh,
  });

  const remove = useMutation({
    mutationFn: ({ memberIds, idempotencyKey }: { memberIds: string[]; idempotencyKey?: string }) => removeLicenses(orgId, memberIds, idempotencyKey),
    onError: (error) => notifyError(errorMessageOf(error, genericOperationError('removeLicenses'))),
    onSuccess: (changed) => notifyInfo(`License removed from ${count(changed.length)}`),
    onSettled: refresh,
  });

  // 'Select all n teachers' (issue 15): the server works out the set; the notice counts the teachers who changed.
  const bulk = useMutation({
    mutationFn: ({ action, idempotencyKey }: { action: TeacherBulkAction; idempotencyKey?: string }) => runTeacherBulkAction(orgId, action, idempotencyKey),
    onError: (error, { action }) =>
      notifyError(errorMessageOf(error, genericOperationError(action.action === 'assign-license' ? 'assignLicenses' : 'removeLicenses'))),
    onSuccess: (result) =>
      notifyInfo(result.action === 'assign-license' ? `License assigned to ${count(result.changed)}` : `License removed from ${count(result.changed)}`),
    onSettled: refresh,
  });

  const markActive = useMutation({
    mutationFn: ({ memberIds, idempotencyKey }: { memberIds: string[]; idempotencyKey?: string }) => grantMembership(orgId, memberIds, idempotencyKey),
    onError: (error) => notifyError(errorMessageOf(error, genericOperationError('grantMembership'))),
    onSuccess: (changed) => notifyInfo(`${count(changed.length)} marked as active`),
    onSettled: refresh,
  });

  // Library manager on or off: shown at once, put back with 'Error setting user role' on failure (spec §4).
  const setRole = useMutation({
    mutationFn: ({ memberId, role }: { memberId: string; role: number }) => updateMembershipRole(orgId, memberId, role),
    onMutate: async ({ memberId, role }) => {
      await queryClient.cancelQueries({ queryKey: teachersQueryRoot(orgId) });
      const before = queryClient.getQueriesData<MembersPage>({ queryKey: teachersQueryRoot(orgId) });
      queryClient.setQueriesData<MembersPage>({ queryKey: teachersQueryRoot(orgId) }, (page) =>
        page ? { ...page, members: page.members.map((m) => (m.id === memberId ? { ...m, role } : m)) } : page,
      );
      return { before };
    },
    onError: (_error, _vars, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
      notifyError(teacherMessages.roleFailed);
    },
  });

  return { assign, remove, bulk, markActive, setRole };
}
