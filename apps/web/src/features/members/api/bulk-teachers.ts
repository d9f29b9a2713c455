import { INPUT_LIMITS, PAGE_SIZES, teacherBulkResultSchema, type Member, type TeacherBulkAction, type TeacherBulkResult, type TeacherListFilter } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { invalidateTeachers } from '../../../lib/query-keys.js';
import { fetchTeachers } from './get-teachers.js';

/**
 * The most teachers a teacher-by-teacher bulk action (the two e-mails, Switch to student, Remove teacher) takes
 * from 'Select all n teachers': the e-mail's own recipient limit (INPUT_LIMITS.emailMembersMax).
 */
export const LOADED_SELECTION_MAX = INPUT_LIMITS.emailMembersMax;

/**
 * POST {payments}/v1/admin/organisations/{orgId}/members/teachers/bulk: a licence change for every teacher matching
 * the filters. The server works out the set itself and refuses (409 selection_changed) when it is not
 * `expectedCount` teachers any more.
 */
function runTeacherBulkAction(orgId: string, action: TeacherBulkAction, idempotencyKey?: string): Promise<TeacherBulkResult> {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', 'teachers', 'bulk'), {
    method: 'POST',
    json: action,
    schema: teacherBulkResultSchema,
    idempotencyKey,
  });
}

export interface TeacherBulkInput {
  action: TeacherBulkAction;
  /** One key per user action: the server refuses a replay of it. */
  idempotencyKey?: string;
}

/** Runs a bulk licence change; the teacher lists and the licence counts reload after, whatever the outcome. */
export function useRunTeacherBulkAction(orgId: string, callbacks: MutationCallbacks<TeacherBulkResult, TeacherBulkInput> = {}) {
  return useApiMutation({
    mutationFn: ({ action, idempotencyKey }: TeacherBulkInput) => runTeacherBulkAction(orgId, action, idempotencyKey),
    callbacks,
    reload: (queryClient) => invalidateTeachers(queryClient, orgId),
  });
}

/**
 * Every active teacher matching the filters, through the list itself (pages of the largest size, in e-mail order),
 * for the actions that work teacher by teacher. Each page after the first is asked for after the one before's
 * nextCursor (keyset), so the last page costs what the first does. At most `max`; stops on the last page (no
 * nextCursor) or at the first page that comes back short.
 */
export async function loadMatchingTeachers(orgId: string, filter: TeacherListFilter, max = LOADED_SELECTION_MAX): Promise<Member[]> {
  const pageSize = PAGE_SIZES[PAGE_SIZES.length - 1] ?? 100;
  const { search = '', view, ...filters } = filter;
  const members: Member[] = [];
  let after: string | undefined;
  for (let page = 1; members.length < max; page++) {
    const answer = await fetchTeachers(orgId, 'active', { search, filters, ...(view === 'district' ? { view } : {}), sort: 'email', dir: 'asc', page, pageSize, ...(after ? { after } : {}) });
    members.push(...answer.members);
    if (!answer.nextCursor || answer.members.length < pageSize || members.length >= answer.total) break;
    after = answer.nextCursor;
  }
  return members.slice(0, max);
}
