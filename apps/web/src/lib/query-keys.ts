import type { QueryClient } from '@tanstack/react-query';

/**
 * Every query key of the console, in one place, so a change can invalidate exactly what it touched.
 * Keys nest: invalidating `organisation(orgId)` reloads everything cached about that organisation
 * (licences, admins, settings, access, analytics); `teachers(orgId)` every page of both teacher lists;
 * `teacherLibraries(orgId)` every teacher's libraries, book counts and transfer targets.
 */
export const queryKeys = {
  consoleConfig: ['console-config'] as const,
  signInMethods: ['auth', 'methods'] as const,
  teacherResources: ['teacher-resources'] as const,
  /** The signed-in person's own 2-step verification (not an organisation's). */
  twoStepStatus: ['two-step'] as const,

  organisation: (orgId: string) => ['organisation', orgId] as const,
  orgAccess: (orgId: string) => ['organisation', orgId, 'access'] as const,
  organisationLicenses: (orgId: string) => ['organisation', orgId, 'licenses'] as const,
  teachersOrganisation: (orgId: string) => ['organisation', orgId, 'teachers-screen'] as const,
  libraryOrganisation: (orgId: string) => ['organisation', orgId, 'teacher-libraries'] as const,
  settings: (orgId: string) => ['organisation', orgId, 'settings'] as const,
  lti: (orgId: string) => ['organisation', orgId, 'lti'] as const,
  ltiPlatforms: (orgId: string) => ['organisation', orgId, 'lti-platforms'] as const,
  scimSetup: (orgId: string) => ['organisation', orgId, 'scim', 'setup'] as const,
  scimRequests: (orgId: string) => ['organisation', orgId, 'scim', 'requests'] as const,
  rosterOrgs: (orgId: string) => ['organisation', orgId, 'rostering', 'orgs'] as const,
  rosterHistory: (orgId: string) => ['organisation', orgId, 'rostering', 'history'] as const,
  rosterImport: (orgId: string, importId: string) => ['organisation', orgId, 'rostering', 'import', importId] as const,
  twoStepPolicy: (orgId: string) => ['organisation', orgId, 'two-step-policy'] as const,
  portfolioDownload: (orgId: string) => ['organisation', orgId, 'portfolio-download'] as const,
  admins: (orgId: string) => ['organisation', orgId, 'admins'] as const,
  auditEvents: (orgId: string, filters: object) => ['organisation', orgId, 'audit-events', filters] as const,
  auditRetention: (orgId: string) => ['organisation', orgId, 'audit-retention'] as const,
  adminsPage: (orgId: string, query: object) => ['organisation', orgId, 'admins', query] as const,
  targetAdmins: (orgId: string) => ['organisation', orgId, 'target-admins'] as const,
  analyticsSession: (orgId: string) => ['organisation', orgId, 'analytics', 'session'] as const,
  analyticsCount: (orgId: string, subject: string, range: { period: string; from: string; to: string } | null) =>
    ['organisation', orgId, 'analytics', 'count', subject, range?.period ?? null, range?.from ?? null, range?.to ?? null] as const,
  analyticsBreakdown: (orgId: string, range: { from: string; to: string }) => ['organisation', orgId, 'analytics', 'breakdown', range.from, range.to] as const,
  analyticsSeries: (orgId: string, metric: string, granularity: string, range: { from: string; to: string }) =>
    ['organisation', orgId, 'analytics', 'series', metric, granularity, range.from, range.to] as const,
  booksCreated: (orgId: string, range: { period: string; from: string; to: string }) =>
    ['organisation', orgId, 'analytics', 'books-periodic', range.period, range.from, range.to] as const,

  teachers: (orgId: string) => ['teachers', orgId] as const,
  teachersPage: (orgId: string, status: string, query: object) => ['teachers', orgId, status, query] as const,
  teacherEmailPreview: (orgId: string, kind: string, memberIds: readonly string[], draft: { message: string; date?: string } | null = null) =>
    ['teacher-email-preview', orgId, kind, memberIds, draft] as const,

  teacherLibraries: (orgId: string) => ['teacher-libraries', orgId] as const,
  librariesOfTeacher: (orgId: string, teacherId: string) => ['teacher-libraries', orgId, teacherId] as const,
  targetTeachers: (orgId: string, search: string) => ['teacher-libraries', orgId, 'target-teachers', search.trim().toLowerCase()] as const,
};

/** After a transfer, an archive or a removal: every teacher's libraries, book counts and transfer targets reload. */
export function invalidateTeacherLibraries(queryClient: QueryClient, orgId: string): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.teacherLibraries(orgId) });
}

/**
 * After a change to teachers (licences, memberships, roles, imports): both lists and everything cached about
 * the organisation (licence counts on the dashboard included) reload.
 */
export function invalidateTeachers(queryClient: QueryClient, orgId: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.teachers(orgId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.organisation(orgId) }),
  ]).then(() => undefined);
}
