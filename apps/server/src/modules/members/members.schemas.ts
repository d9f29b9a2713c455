import { PAGE_SIZES } from '@quire/core';
import { z } from 'zod';

/** Request schemas of the members REST routes (documented in docs/teachers-api.md). */

export const orgParamsSchema = z.object({ orgId: z.string().min(1) });
export const teacherParamsSchema = z.object({ orgId: z.string().min(1), teacherId: z.string().min(1) });

export const listQuerySchema = z.object({
  /** Case-insensitive substring of e-mail or display name. */
  search: z.string().max(320).optional(),
  sort: z.enum(['email', 'name', 'signedUp', 'license', 'removed']).optional(),
  /** yes: only teachers who signed up; no: only pending ones (issue 15). */
  signedUp: z.enum(['yes', 'no']).optional(),
  /** A licence id, or 'none' for teachers without a licence. */
  license: z.string().min(1).max(200).optional(),
  /** complete (a certification badge), in-progress, or none. */
  certification: z.enum(['complete', 'in-progress', 'none']).optional(),
  dir: z.enum(['asc', 'desc']).optional(),
  /** 1-based page; with page or pageSize the answer is one page with its total. */
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

export const exportQuerySchema = listQuerySchema.extend({
  scope: z.enum(['all', 'page']).default('all'),
  /** Which tab to export; Active by default. */
  status: z.enum(['active', 'inactive']).default('active'),
});

const emailList = z.array(z.string().max(320)).max(20_000);

/**
 * Import body: the spec's bare list of e-mails, or { emails, licenses } where licenses maps an
 * e-mail to the licence id the admin ticked for it.
 */
export const importBodySchema = z.union([
  emailList,
  z.object({ emails: emailList, licenses: z.record(z.string(), z.string().min(1)).optional() }),
]);

export const convertParamsSchema = z.object({ userId: z.string().min(1) });
export const convertBodySchema = z
  .object({
    myBooksLibraryName: z.string().max(128).optional(),
    /** Needed only when the teacher is in several organisations the admin administers. */
    organisationId: z.string().min(1).optional(),
  })
  .default({});
