import { queryOptions } from '@tanstack/react-query';
import { membersPageSchema, type Member } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** How many matches the target picker asks for at a time: the list is searched on the server. */
const TARGET_PAGE_SIZE = 20;

/** A teacher who could receive the libraries. */
export type TargetTeacher = Pick<Member, 'id' | 'email' | 'displayName' | 'pending'>;

/** One page of the teachers who could receive the libraries, and how many match in all. */
export interface TargetTeachersPage {
  members: TargetTeacher[];
  total: number;
}

/**
 * GET {payments}/…/members/teachers?search=…&signedUp=yes: one page of signed-up active teachers matching the
 * search, names and e-mails searched on the server (pending teachers can never receive libraries, spec §5).
 */
function fetchTargetTeachers(orgId: string, search: string, signal?: AbortSignal): Promise<TargetTeachersPage> {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', 'teachers'), {
    query: { search: search.trim() || undefined, signedUp: 'yes', sort: 'name', dir: 'asc', page: 1, pageSize: TARGET_PAGE_SIZE },
    schema: membersPageSchema,
    signal,
  });
}

export function targetTeachersQueryOptions(orgId: string, search: string) {
  return queryOptions({
    queryKey: queryKeys.targetTeachers(orgId, search),
    queryFn: ({ signal }) => fetchTargetTeachers(orgId, search, signal),
  });
}
