import { z } from 'zod';
import { idSchema } from './common.js';

/**
 * A teacher's libraries and what an admin does with them (spec §3 Library, §7 the {api} teacher calls;
 * docs/libraries-api.md). The spec's teacher paths carry no organisation: the console names it in the query
 * (`organisationId`), the X-Organisation-Id header or the body.
 */

// ---- Requests ----

/** `{teacherId}` is a member id. */
export const libraryTeacherParamsSchema = z.object({ teacherId: idSchema });
export const joinLibraryParamsSchema = z.object({ teacherId: idSchema, libraryId: idSchema });
export const transferLibrariesParamsSchema = z.object({
  teacherId: idSchema,
  /** A member id (type teacher); an admin's e-mail, user id or member id (type admin). */
  newOwnerId: z.string().min(1).max(320),
  type: z.enum(['teacher', 'admin']),
});
/** The organisation the teacher must belong to; also accepted as the X-Organisation-Id header or a body field. */
export const organisationQuerySchema = z.object({ organisationId: idSchema.optional() });
export const organisationBodySchema = z.object({ organisationId: idSchema.optional() }).default({});

export const joinLibraryBodySchema = z
  .object({
    /** A preset, 'Other', or the free text itself. */
    reason: z.string().max(1000).optional(),
    /** The free text when reason is 'Other'. */
    otherReason: z.string().max(1000).optional(),
    organisationId: idSchema.optional(),
  })
  .default({});

/** What happens to the teacher's shared libraries as the account goes (the delete dialog's three choices). */
const librariesOnArchiveSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('archive') }),
  z.object({ action: z.enum(['teacher', 'admin']), newOwnerId: z.string().min(1).max(320) }),
]);
export type LibrariesOnArchive = z.infer<typeof librariesOnArchiveSchema>;

export const userArchiveBodySchema = z
  .object({
    organisationId: idSchema.optional(),
    /** The name the admin saw; kept in the audit record only. */
    organisationName: z.string().max(256).optional(),
    /** What happens to the shared libraries first, in the same transaction (absent: they are archived). */
    libraries: librariesOnArchiveSchema.optional(),
  })
  .default({});

// ---- Answers ----

/** A library from one teacher's point of view. */
const librarySchema = z.object({
  id: z.string(),
  name: z.string(),
  bookCount: z.number(),
  /** Authors: members of the library below Read-Only. */
  userCount: z.number(),
  /** The teacher's numeric level in the library (lower = more rights). */
  role: z.number(),
  isPrivate: z.boolean(),
  isOwner: z.boolean(),
  ownerId: z.string(),
  /** The acting admin already joined it: a visit asks no reason. */
  joined: z.boolean(),
  archivedAt: z.string().nullable(),
});
export type Library = z.infer<typeof librarySchema>;

/** GET {api}/{teacherId}: both groups. */
export const teacherLibrariesSchema = z.object({ unarchived: z.array(librarySchema), archived: z.array(librarySchema) });
export type TeacherLibraries = z.infer<typeof teacherLibrariesSchema>;

/** GET {api}/{teacherId}/owned and /joined: the unarchived libraries of one relation. */
export const libraryRelationSchema = teacherLibrariesSchema.pick({ unarchived: true });

/** PUT {api}/{teacherId}/admins/owner/all/{newOwnerId}/{type}. */
export const librariesReassignedSchema = z.object({
  libraryIds: z.array(z.string()),
  newOwner: z.object({ memberId: z.string(), email: z.string(), displayName: z.string(), createdMember: z.boolean() }),
});
export type LibrariesReassigned = z.infer<typeof librariesReassignedSchema>;

/** POST {api}/{teacherId}/admins/archive/all. */
export const librariesArchivedSchema = z.object({ libraryIds: z.array(z.string()), archivedAt: z.string() });
export type LibrariesArchived = z.infer<typeof librariesArchivedSchema>;

/** POST {api}/{teacherId}/admins/{libraryId}/join: a single-use token and the link that spends it. */
export const joinLibraryResultSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  /** The library in the product app, carrying the single-use sign-in token: open it in a new tab. */
  url: z.url({ protocol: /^https?$/ }),
});
export type JoinLibraryResult = z.infer<typeof joinLibraryResultSchema>;

/** POST {api}/admin-tools/v2/{teacherId}/users/delete-check. */
export const deleteCheckSchema = z.object({
  canDelete: z.boolean(),
  /** Why not; the console appends these to 'Error deleting teacher'. */
  reasons: z.array(z.string()),
  /** Unarchived libraries still owned (the private one included): archiving the user closes them. */
  ownedLibraries: z.number(),
});
export type DeleteCheck = z.infer<typeof deleteCheckSchema>;

/** POST {api}/admin-tools/v2/{teacherId}/users/archive. */
export const userArchivedSchema = z.object({
  memberId: z.string(),
  /** Shared libraries given to the new owner (none when archived). */
  transferredLibraryIds: z.array(z.string()),
  revokedAt: z.string(),
  archivedLibraryIds: z.array(z.string()),
  freedLicenseId: z.string().nullable(),
});
export type UserArchived = z.infer<typeof userArchivedSchema>;
