import { z } from 'zod';
import { teacherViewSchema } from './members.js';

/**
 * 'Select all n teachers' across pages: the console sends the Active list's filters and the count
 * it showed, never the ids of every page; the server works out the set itself, inside the change's
 * transaction, and refuses when it is not the count the admin saw (docs/teachers-api.md, "Bulk actions on
 * every matching teacher").
 */

/** The Teachers list's filters, as the list (GET …/members/teachers) takes them. */
const teacherListFilterSchema = z.object({
  /** Case-insensitive substring of e-mail or display name. */
  search: z.string().max(320).optional(),
  /** yes: teachers who signed up; no: pending ones. */
  signedUp: z.enum(['yes', 'no']).optional(),
  /** A licence id, or 'none' for teachers without a licence. */
  license: z.string().min(1).max(200).optional(),
  /** complete (a certification badge), in-progress, or none. */
  certification: z.enum(['complete', 'in-progress', 'none']).optional(),
  /** district: the district's teachers and its schools' (admins of the district only). */
  view: teacherViewSchema.optional(),
  /** The district view only: one organisation of the district. */
  school: z.string().min(1).max(200).optional(),
});

export type TeacherListFilter = z.infer<typeof teacherListFilterSchema>;

/** Every active teacher matching `filter`; exactly `expectedCount` of them, or nothing happens. */
const teacherSelectionSchema = z.object({
  filter: teacherListFilterSchema,
  /** The count the console showed before Apply. */
  expectedCount: z.number().int().min(1).max(10_000_000),
});

/**
 * POST {payments}/v1/admin/organisations/{orgId}/members/teachers/bulk: a licence change for every matching teacher.
 * assign-license puts them on `licenseId` (the rules of PUT …/licenses/{licenseId}); remove-license takes theirs away.
 */
export const teacherBulkActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('assign-license'), licenseId: z.string().min(1).max(200), selection: teacherSelectionSchema }),
  z.object({ action: z.literal('remove-license'), selection: teacherSelectionSchema }),
]);

export type TeacherBulkAction = z.infer<typeof teacherBulkActionSchema>;

export const teacherBulkResultSchema = z.object({
  action: z.enum(['assign-license', 'remove-license']),
  /** Teachers the selection matched (the expected count). */
  matched: z.number(),
  /** Teachers actually changed (those already on the licence, or without one, did not). */
  changed: z.number(),
  /** assign-license: the licence's seats in use and left afterwards. */
  allocated: z.number().optional(),
  available: z.number().optional(),
});

export type TeacherBulkResult = z.infer<typeof teacherBulkResultSchema>;
