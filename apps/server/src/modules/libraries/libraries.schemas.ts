import { z } from 'zod';

/** Request schemas of the teacher libraries routes (documented in docs/libraries-api.md). */

const id = z.string().min(1).max(200);

/** `{teacherId}` is a member id. */
export const teacherParamsSchema = z.object({ teacherId: id });
export const joinParamsSchema = z.object({ teacherId: id, libraryId: id });
export const transferParamsSchema = z.object({
  teacherId: id,
  /** A member id (type teacher); an admin's e-mail, user id or member id (type admin). */
  newOwnerId: z.string().min(1).max(320),
  type: z.enum(['teacher', 'admin']),
});

/** The organisation the teacher must belong to; also accepted as the X-Organisation-Id header or a body field. */
export const organisationQuerySchema = z.object({ organisationId: id.optional() });

export const organisationBodySchema = z.object({ organisationId: id.optional() }).default({});

export const joinBodySchema = z
  .object({
    /** A preset, 'Other', or the free text itself. */
    reason: z.string().max(1000).optional(),
    /** The free text when reason is 'Other'. */
    otherReason: z.string().max(1000).optional(),
    organisationId: id.optional(),
  })
  .default({});

export const userArchiveBodySchema = z
  .object({
    organisationId: id.optional(),
    /** The name the admin saw; kept in the audit record only. */
    organisationName: z.string().max(256).optional(),
    /** What happens to the shared libraries first, in the same transaction (absent: they are archived). */
    libraries: z
      .discriminatedUnion('action', [
        z.object({ action: z.literal('archive') }),
        z.object({ action: z.enum(['teacher', 'admin']), newOwnerId: z.string().min(1).max(320) }),
      ])
      .optional(),
  })
  .default({});
