import { z } from 'zod';

/** A library from one teacher's point of view (spec §3 Library, docs/libraries-api.md). */
export const librarySchema = z.object({
  id: z.string(),
  name: z.string(),
  bookCount: z.number(),
  /** Authors: members of the library below Read-Only. */
  userCount: z.number(),
  /** The teacher's numeric level in the library (lower = more rights). */
  role: z.number(),
  isPrivate: z.boolean(),
  isOwner: z.boolean().optional(),
  ownerId: z.string().optional(),
  /** The acting admin already joined it: a visit asks no reason. */
  joined: z.boolean().optional(),
  archivedAt: z.string().nullable().optional(),
});
export type Library = z.infer<typeof librarySchema>;

/** GET {api}/{teacherId}: both groups. */
export const teacherLibrariesSchema = z.object({
  unarchived: z.array(librarySchema),
  archived: z.array(librarySchema).default([]),
});
export type TeacherLibraries = z.infer<typeof teacherLibrariesSchema>;

/** GET …/members/{teacherId}/book-counts. */
export const bookCountsSchema = z.object({ owned: z.number(), private: z.number(), total: z.number() });
export type BookCounts = z.infer<typeof bookCountsSchema>;

/** POST {api}/{teacherId}/admins/{libraryId}/join. */
/** The join answer: the single-use sign-in token and the link to the library in the product app that carries it. */
export const joinResultSchema = z.object({
  token: z.string(),
  expiresAt: z.string().optional(),
  url: z.url({ protocol: /^https?$/ }),
});
export type JoinResult = z.infer<typeof joinResultSchema>;

/** POST {api}/admin-tools/v2/{teacherId}/users/delete-check. */
export const deleteCheckSchema = z.object({
  canDelete: z.boolean(),
  reasons: z.array(z.string()).default([]),
  ownedLibraries: z.number().optional(),
});
export type DeleteCheck = z.infer<typeof deleteCheckSchema>;
