import { z } from 'zod';
import { PAGE_SIZES } from '../constants.js';
import { organisationLicenseSchema } from './licenses.js';

/** Teachers of an organisation (spec §3 Teacher, §7 members calls; docs/teachers-api.md). */

const teacherStatusSchema = z.enum(['active', 'inactive']);
export type TeacherStatus = z.infer<typeof teacherStatusSchema>;
/** `school`: by the name of the teacher's organisation (a district's list; on one organisation's list it orders as `email`). */
const teacherSortKeySchema = z.enum(['email', 'name', 'signedUp', 'license', 'removed', 'school']);
export type TeacherSortKey = z.infer<typeof teacherSortKeySchema>;
const sortDirectionSchema = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof sortDirectionSchema>;

// ---- Requests ----

export const memberParamsSchema = z.object({ orgId: z.string().min(1), teacherId: z.string().min(1) });

/**
 * Whose teachers a list holds: the organisation's own (default), or, for an admin of a district, the district's own
 * and those of every school under it, each with the school it belongs to (docs/districts.md, "District views").
 */
export const teacherViewSchema = z.enum(['organisation', 'district']);
/** @internal */
export type TeacherView = z.infer<typeof teacherViewSchema>;

/** The lists' query (Active and Inactive); with page or pageSize the answer is one page with its total. */
export const teachersListQuerySchema = z.object({
  view: teacherViewSchema.optional(),
  /** The district view only: the teachers of one organisation of the district (the district itself or a school under it). */
  school: z.string().min(1).max(200).optional(),
  /** Case-insensitive substring of e-mail or display name. */
  search: z.string().max(320).optional(),
  sort: teacherSortKeySchema.optional(),
  /** yes: only teachers who signed up; no: only pending ones. */
  signedUp: z.enum(['yes', 'no']).optional(),
  /** A licence id, or 'none' for teachers without a licence. */
  license: z.string().min(1).max(200).optional(),
  /** complete (a certification badge), in-progress, or none. */
  certification: z.enum(['complete', 'in-progress', 'none']).optional(),
  dir: sortDirectionSchema.optional(),
  /** 1-based page. */
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), `pageSize must be one of ${PAGE_SIZES.join(', ')}`)
    .optional(),
  /** A previous answer's nextCursor: the page after that row, as fast however deep (keyset). */
  after: z.string().min(1).max(4000).optional(),
  /** A previous answer's previousCursor: the page before that row. */
  before: z.string().min(1).max(4000).optional(),
});
export type TeachersListParams = z.infer<typeof teachersListQuerySchema>;

export const teachersExportQuerySchema = teachersListQuerySchema.extend({
  scope: z.enum(['all', 'page']).default('all'),
  /** Which tab to export; Active by default. */
  status: teacherStatusSchema.default('active'),
});

const emailList = z.array(z.string().max(320)).max(20_000);

/**
 * Import body: the spec's bare list of e-mails, or { emails, licenses } where licenses maps an e-mail to the
 * licence id the admin ticked for it.
 */
export const importTeachersBodySchema = z.union([
  emailList,
  z.object({ emails: emailList, licenses: z.record(z.string(), z.string().min(1)).optional() }),
]);

export const convertToStudentParamsSchema = z.object({ userId: z.string().min(1) });
export const convertToStudentBodySchema = z
  .object({
    myBooksLibraryName: z.string().max(128).optional(),
    /** Needed only when the teacher is in several organisations the admin administers. */
    organisationId: z.string().min(1).optional(),
  })
  .default({});

// ---- Answers ----

/** The licence a teacher holds, with what the table's License column needs. */
const memberLicenseSchema = organisationLicenseSchema.pick({ id: true, name: true, bookQuota: true, libraryQuota: true, applyToAll: true });
export type MemberLicense = z.infer<typeof memberLicenseSchema>;

/** A teacher (spec §3 Teacher / member), camelCase. */
const memberSchema = z.object({
  id: z.string(),
  /** The identity user, once they signed up. */
  userId: z.string().nullable(),
  email: z.string(),
  displayName: z.string(),
  /** -600 pending teacher, 400 library manager, 600 teacher. */
  role: z.number(),
  license: memberLicenseSchema.nullable(),
  pending: z.boolean(),
  /** When each certification badge was earned (ISO 8601), or null. */
  badges: z.object({ calevel1: z.string().nullable(), calevel2: z.string().nullable() }),
  /** The certification level in progress, or null. */
  certifying: z.number().nullable(),
  isAmbassador: z.boolean(),
  isStudent: z.boolean(),
  /** When the teacher was removed (Inactive), or null. */
  revokedAt: z.string().nullable(),
  signedUpAt: z.string().nullable(),
  /**
   * The role the district's student information system gives a teacher a OneRoster import manages (teacher, aide,
   * principal, siteAdministrator, districtAdministrator…, as the file spells it), or null for a teacher added otherwise.
   */
  rosterRole: z.string().nullable(),
  /** A district's list only: the organisation the teacher belongs to (the School column); every change to them is made there. */
  organisation: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type Member = z.infer<typeof memberSchema>;

/** GET …/members/teachers and …/inactive-teachers: the matches (one page when asked), and how many match in all. */
export const membersPageSchema = z.object({
  members: z.array(memberSchema),
  total: z.number(),
  page: z.number().optional(),
  pageSize: z.number().optional(),
  /** The cursor of the page after this one (send it as `after`), or null on the last page. */
  nextCursor: z.string().nullable().optional(),
  /** The cursor of the page before this one (send it as `before`), or null on the first page. */
  previousCursor: z.string().nullable().optional(),
});
export type MembersPage = z.infer<typeof membersPageSchema>;

const importedMemberSchema = z.object({ id: z.string(), email: z.string() });

/** POST …/members/import/teachers. */
export const importTeachersResultSchema = z.object({
  newMembers: z.array(importedMemberSchema),
  existingMembers: z.array(importedMemberSchema),
  /** Ticked licences that could not be granted (no seat left); the teachers were imported without them. */
  licensesNotGranted: z.array(z.object({ email: z.string(), licenseId: z.string() })),
});
export type ImportTeachersResult = z.infer<typeof importTeachersResultSchema>;

/** GET …/members/{teacherId}/book-counts: books in the teacher's own libraries. */
export const bookCountsSchema = z.object({ owned: z.number(), private: z.number(), total: z.number() });
export type BookCounts = z.infer<typeof bookCountsSchema>;

/** POST {api}/users/v2/{userId}/convert-to-student. */
export const convertToStudentResultSchema = z.object({
  memberId: z.string(),
  organisationId: z.string(),
  isStudent: z.literal(true),
  myBooksLibrary: z.object({ id: z.string(), name: z.string(), created: z.boolean() }),
});
export type ConvertToStudentResult = z.infer<typeof convertToStudentResultSchema>;

/** revokeMembership, grantMembership, deleteMemberships and removeLicenses: the members actually changed. */
export const membersChangedSchema = z.object({ memberIds: z.array(z.string()) });
export type MembersChanged = z.infer<typeof membersChangedSchema>;

/** updateMembershipRole. */
export const membershipRoleSchema = z.object({ memberId: z.string(), role: z.number() });
export type MembershipRole = z.infer<typeof membershipRoleSchema>;
