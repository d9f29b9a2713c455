import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { auditEventsPageSchema, auditRetentionSchema } from './schemas/audit.js';
import { adminPageSchema, adminsImportedSchema, adminsRemovedSchema } from './schemas/admins.js';
import {
  analyticsBreakdownSchema,
  analyticsCountSchema,
  analyticsIntakeResultSchema,
  analyticsPeriodicCountSchema,
  analyticsSeriesSchema,
  analyticsSessionSchema,
} from './schemas/analytics.js';
import { adminSessionSchema, allowedAsTeacherSchema, customTokenSchema, providerNamesSchema, resendEmailSchema } from './schemas/auth.js';
import { consoleConfigSchema } from './schemas/console-config.js';
import { identitySessionSchema } from './schemas/identity-session.js';
import { signInMethodsSchema } from './schemas/sign-in-methods.js';
import { teacherBulkResultSchema } from './schemas/teacher-selection.js';
import {
  authenticatorSetupSchema,
  passkeyAddedSchema,
  passkeyOptionsSchema,
  passkeySchema,
  recoveryCodesSchema,
  twoStepChangedSchema,
  twoStepPolicySchema,
  twoStepStatusSchema,
  twoStepVerifiedSchema,
} from './schemas/two-step.js';
import { livenessSchema, readinessSchema } from './schemas/health.js';
import {
  identityProviderAnswerSchema,
  identityStatusSchema,
  identityUserSchema,
  idTokenSchema,
  oauthStartSchema,
  passwordResetRequestedSchema,
  signOutSchema,
} from './schemas/identity.js';
import {
  deleteCheckSchema,
  joinLibraryResultSchema,
  librariesArchivedSchema,
  librariesReassignedSchema,
  libraryRelationSchema,
  teacherLibrariesSchema,
  userArchivedSchema,
} from './schemas/libraries.js';
import { licenseAllocationsSchema, licenseAssignmentSchema } from './schemas/licenses.js';
import { ltiAdvantageSchema, ltiCredentialsSchema, ltiJwksSchema, ltiPlatformSchema, ltiRegistrationLinkSchema } from './schemas/lti.js';
import { generatedScimTokenSchema, scimRequestsSchema, scimSetupSchema } from './schemas/scim.js';
import { rosterHistorySchema, rosterImportSchema, rosterOrgSetupSchema } from './schemas/rostering.js';
import {
  bookCountsSchema,
  convertToStudentResultSchema,
  importTeachersResultSchema,
  membersChangedSchema,
  membershipRoleSchema,
  membersPageSchema,
} from './schemas/members.js';
import { organisationSchema, organisationSummarySchema, renamedOrganisationSchema } from './schemas/organisations.js';
import { portfolioDownloadSchema } from './schemas/portfolios.js';
import { teacherResourcesSchema } from './schemas/resources.js';
import { effectiveSettingsSchema, organisationSettingsSchema, settingsReadSchema, userAppsSchema } from './schemas/settings.js';
import { sendEmailResultSchema, teacherEmailPreviewSchema } from './schemas/teacher-mail.js';

/**
 * Which schema is the contract of which answer, in one table. The server's contract test
 * (apps/server/test/route-contracts.test.ts) fails unless every JSON route documents exactly this schema as
 * its 200 answer and every GraphQL field's type agrees with it; the console's test fake (apps/web/src/test/
 * fake-fetch.ts) refuses an answer that does not match it. So the server, the console and the tests' fakes
 * cannot drift apart.
 */

/** Every JSON answer of the REST services, by `METHOD path` as the server registers the route. @internal */
export const restContracts = {
  'GET /healthz': livenessSchema,
  'GET /readyz': readinessSchema,
  'GET /api/console-config': consoleConfigSchema,
  'GET /identity/users/:uid': identityUserSchema,
  'GET /identity/get-session': identitySessionSchema,
  'GET /identity/token': idTokenSchema,
  'POST /identity/one-time-token/verify': identitySessionSchema,
  'POST /identity/sign-in/social': oauthStartSchema,
  'POST /identity/sign-out': signOutSchema,
  'POST /identity/request-password-reset': passwordResetRequestedSchema,
  'POST /identity/sign-in/*': identityProviderAnswerSchema,
  'POST /identity/sign-up/*': identityProviderAnswerSchema,
  'POST /identity/update-user': identityStatusSchema,
  'POST /identity/send-verification-email': identityStatusSchema,
  'GET /identity/*': identityProviderAnswerSchema,
  'POST /identity/*': identityProviderAnswerSchema,
  'POST /auth/email': customTokenSchema,
  'POST /auth/allowed-as-teacher': allowedAsTeacherSchema,
  'GET /auth/methods': signInMethodsSchema,
  'POST /api/token': adminSessionSchema,
  'GET /api/users/v2/providers/:email': providerNamesSchema,
  'POST /api/resend-email/:email': resendEmailSchema,
  'GET /payments/v1/admin/organisations/:orgId/members/teachers': membersPageSchema,
  'GET /payments/v1/admin/organisations/:orgId/members/inactive-teachers': membersPageSchema,
  'POST /payments/v1/admin/organisations/:orgId/members/import/teachers': importTeachersResultSchema,
  'POST /payments/v1/admin/organisations/:orgId/members/teachers/bulk': teacherBulkResultSchema,
  'GET /payments/v1/admin/organisations/:orgId/members/:teacherId/book-counts': bookCountsSchema,
  'POST /api/users/v2/:userId/convert-to-student': convertToStudentResultSchema,
  'PUT /payments/v1/admin/organisations/:orgId/licenses/:licenseId': licenseAssignmentSchema,
  'GET /payments/v1/admin/organisations/:orgId/licenses/:licenseId/allocations': licenseAllocationsSchema,
  'PUT /payments/v1/admin/organisations/:orgId/licenses/:licenseId/allocations/:schoolId': licenseAllocationsSchema,
  'GET /api/:teacherId': teacherLibrariesSchema,
  'GET /api/:teacherId/owned': libraryRelationSchema,
  'GET /api/:teacherId/joined': libraryRelationSchema,
  'PUT /api/:teacherId/admins/owner/all/:newOwnerId/:type': librariesReassignedSchema,
  'POST /api/:teacherId/admins/archive/all': librariesArchivedSchema,
  'POST /api/:teacherId/admins/:libraryId/join': joinLibraryResultSchema,
  'POST /api/admin-tools/v2/:teacherId/users/delete-check': deleteCheckSchema,
  'POST /api/admin-tools/v2/:teacherId/users/archive': userArchivedSchema,
  'GET /api/organisations/:orgId/settings': settingsReadSchema,
  'GET /api/organisations/:orgId/scim/tokens': scimSetupSchema,
  'POST /api/organisations/:orgId/scim/tokens': generatedScimTokenSchema,
  'DELETE /api/organisations/:orgId/scim/tokens/:tokenId': scimSetupSchema,
  'GET /api/organisations/:orgId/scim/requests': scimRequestsSchema,
  'POST /api/organisations/:orgId/rostering/imports': rosterImportSchema,
  'GET /api/organisations/:orgId/rostering/imports': rosterHistorySchema,
  'GET /api/organisations/:orgId/rostering/imports/:importId': rosterImportSchema,
  'POST /api/organisations/:orgId/rostering/imports/:importId/preview': rosterImportSchema,
  'POST /api/organisations/:orgId/rostering/imports/:importId/apply': rosterImportSchema,
  'POST /api/organisations/:orgId/rostering/imports/:importId/cancel': rosterImportSchema,
  'GET /api/organisations/:orgId/rostering/orgs': rosterOrgSetupSchema,
  'PUT /api/organisations/:orgId/rostering/orgs': rosterOrgSetupSchema,
  'PATCH /api/organisations/:orgId/settings': organisationSettingsSchema,
  'GET /api/organisations/:orgId/users/:userId/apps': userAppsSchema,
  'PATCH /api/organisations/:orgId/setting-policies': effectiveSettingsSchema,
  'GET /api/two-step': twoStepStatusSchema,
  'POST /api/two-step/authenticator': authenticatorSetupSchema,
  'POST /api/two-step/authenticator/confirm': recoveryCodesSchema,
  'POST /api/two-step/recovery-codes': recoveryCodesSchema,
  'POST /api/two-step/disable': twoStepChangedSchema,
  'POST /api/two-step/verify': twoStepVerifiedSchema,
  'POST /api/two-step/passkeys/options': passkeyOptionsSchema,
  'POST /api/two-step/passkeys': passkeyAddedSchema,
  'PATCH /api/two-step/passkeys/:passkeyId': passkeySchema,
  'DELETE /api/two-step/passkeys/:passkeyId': twoStepChangedSchema,
  'POST /api/two-step/verify/passkey-options': passkeyOptionsSchema,
  'POST /api/two-step/verify/passkey': twoStepVerifiedSchema,
  'POST /auth/passkey/options': passkeyOptionsSchema,
  'POST /auth/passkey': customTokenSchema,
  'GET /api/organisations/:orgId/two-step-policy': twoStepPolicySchema,
  'PUT /api/organisations/:orgId/two-step-policy': twoStepPolicySchema,
  'POST /api/organisations/:orgId/admins/:userId/two-step/reset': twoStepChangedSchema,
  'POST /analytics/events': analyticsIntakeResultSchema,
  'GET /analytics/sessions/app/organisations/:orgId': analyticsSessionSchema,
  'GET /analytics/users/organisations/:orgId/students/count': analyticsCountSchema,
  'GET /analytics/users/organisations/:orgId/libraries/count': analyticsCountSchema,
  'GET /analytics/users/organisations/:orgId/books/count': analyticsCountSchema,
  'GET /analytics/users/organisations/:orgId/books/count/periodic': analyticsPeriodicCountSchema,
  'GET /analytics/data/app/organisations/:orgId/breakdown.json': analyticsBreakdownSchema,
  'GET /analytics/data/app/organisations/:orgId/:file': analyticsSeriesSchema,
  'GET /analytics/data/app/organisations/:orgId/:metric/:file': analyticsSeriesSchema,
  'GET /rest/:org/student-portfolios-export/:id': portfolioDownloadSchema,
  'GET /api/teacher-resources': teacherResourcesSchema,
  'GET /lti/1.3/jwks': ltiJwksSchema,
  'GET /api/organisations/:orgId/lti/platforms': ltiAdvantageSchema,
  'PUT /api/organisations/:orgId/lti/platforms/:platformId': ltiPlatformSchema,
  'POST /api/organisations/:orgId/lti/registrations': ltiRegistrationLinkSchema,
  'GET /api/organisations/:orgId/audit-events': auditEventsPageSchema,
  'GET /api/organisations/:orgId/audit-settings': auditRetentionSchema,
  'PUT /api/organisations/:orgId/audit-settings': auditRetentionSchema,
} as const satisfies Record<string, $ZodType>;
type RestContractKey = keyof typeof restContracts;

/**
 * Every root field of the organisation service (POST {graphql}), by name: the contract of its value. The
 * console asks for a selection of an object's fields and parses it with a `pick` of this schema.
 * @internal
 */
export const graphqlContracts = {
  getOrganisations: z.array(organisationSummarySchema),
  getOrganisationById: organisationSchema,
  renameOrganisation: renamedOrganisationSchema,
  moveOrganisation: organisationSummarySchema,
  getAdmins: adminPageSchema,
  importAdmins: adminsImportedSchema,
  deleteAdmins: adminsRemovedSchema,
  revokeMembership: membersChangedSchema,
  grantMembership: membersChangedSchema,
  deleteMemberships: membersChangedSchema,
  updateMembershipRole: membershipRoleSchema,
  assignLicenses: licenseAssignmentSchema,
  removeLicenses: membersChangedSchema,
  teacherEmailPreview: teacherEmailPreviewSchema,
  sendEmail: sendEmailResultSchema,
  generateLTICredentials: ltiCredentialsSchema,
  revokeLTICredentials: ltiCredentialsSchema,
  updateSettings: organisationSettingsSchema,
  updateSettingPolicies: effectiveSettingsSchema,
} as const satisfies Record<string, $ZodType>;
/** @internal */
export type GraphqlContractField = keyof typeof graphqlContracts;

/** The contract of a REST answer: the table's entry whose path pattern matches (`:name` is one segment). @internal */
export function restContractFor(method: string, path: string): { key: RestContractKey; schema: $ZodType } | null {
  const wanted = method.toUpperCase();
  let best: { key: RestContractKey; schema: $ZodType; literal: number } | null = null;
  for (const [key, schema] of Object.entries(restContracts) as Array<[RestContractKey, $ZodType]>) {
    const [keyMethod, pattern = ''] = key.split(' ');
    if (keyMethod !== wanted) continue;
    const parts = pattern.split('/');
    const segments = path.split('/');
    // A trailing * stands for the rest of the path (the identity provider's own endpoints).
    const rest = parts.at(-1) === '*';
    if (rest ? segments.length < parts.length : parts.length !== segments.length) continue;
    const fixed = rest ? parts.slice(0, -1) : parts;
    if (!fixed.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]))) continue;
    // The most literal pattern wins: /api/teacher-resources over /api/:teacherId.
    const literal = fixed.filter((part) => !part.startsWith(':')).length + (rest ? 0 : 0.5);
    if (!best || literal > best.literal) best = { key, schema, literal };
  }
  return best ? { key: best.key, schema: best.schema } : null;
}
