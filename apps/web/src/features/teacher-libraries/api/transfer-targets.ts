import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, graphqlRequest, serviceUrl } from '../../../lib/api/index.js';

/** A teacher who could receive the libraries. */
const targetTeacherSchema = z.object({ id: z.string(), email: z.string(), displayName: z.string(), pending: z.boolean() });
export type TargetTeacher = z.infer<typeof targetTeacherSchema>;

/** How many matches the target picker asks for at a time: the list is searched on the server. */
export const TARGET_PAGE_SIZE = 20;

/** One page of the teachers who could receive the libraries, and how many match in all. */
export interface TargetTeachersPage {
  members: TargetTeacher[];
  total: number;
}

/**
 * GET {payments}/…/members/teachers?search=…&signedUp=yes: one page of signed-up active teachers matching the
 * search, names and e-mails searched on the server (pending teachers can never receive libraries, spec §5).
 */
export function fetchTargetTeachers(orgId: string, search: string, signal?: AbortSignal): Promise<TargetTeachersPage> {
  return apiRequest(serviceUrl('payments', '/v1/admin/organisations', orgId, 'members', 'teachers'), {
    query: { search: search.trim() || undefined, signedUp: 'yes', sort: 'name', dir: 'asc', page: 1, pageSize: TARGET_PAGE_SIZE },
    schema: z.object({ members: z.array(targetTeacherSchema), total: z.number().optional() }),
    signal,
  }).then((page) => ({ members: page.members, total: page.total ?? page.members.length }));
}

export function targetTeachersQueryOptions(orgId: string, search: string) {
  return queryOptions({
    queryKey: ['teacher-libraries', orgId, 'target-teachers', search.trim().toLowerCase()] as const,
    queryFn: ({ signal }) => fetchTargetTeachers(orgId, search, signal),
  });
}

/** An admin who could receive the libraries; displayName is the teacher's name when they are also a teacher. */
const targetAdminSchema = z.object({ email: z.string(), displayName: z.string().nullable(), memberId: z.string().nullable(), isYou: z.boolean() });
export type TargetAdmin = z.infer<typeof targetAdminSchema>;

const GET_TARGET_ADMINS = /* GraphQL */ `
  query getAdmins($orgId: ID!, $pageSize: Int) {
    getAdmins(orgId: $orgId, sort: "email", dir: "asc", page: 1, pageSize: $pageSize) {
      admins { email displayName memberId isYou }
    }
  }
`;

export function targetAdminsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: ['organisation', orgId, 'target-admins'] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ getAdmins: { admins: unknown } }>({ query: GET_TARGET_ADMINS, variables: { orgId, pageSize: 100 }, signal });
      return z.array(targetAdminSchema).parse(data.getAdmins.admins);
    },
  });
}
