import { z } from 'zod';

/** The Admin page of the organisation service (spec §3 Admin; docs/libraries-api.md, "Admins"). */

/** One admin: e-mail and organisation, plus what the server knows of them. */
export const adminEntrySchema = z.object({
  email: z.string(),
  organisationId: z.string(),
  /** The table's Organization column. */
  organisationName: z.string(),
  /** Identity user, once they signed in. */
  userId: z.string().nullable(),
  /** When the admin is also a member (teacher) of the organisation. */
  memberId: z.string().nullable(),
  /** The member's name, else the user's name; null: show the e-mail. */
  displayName: z.string().nullable(),
  /** The signed-in user. */
  isYou: z.boolean(),
});
export type AdminEntry = z.infer<typeof adminEntrySchema>;

/** getAdmins(orgId, search, sort, dir, page, pageSize). */
export const adminPageSchema = z.object({
  admins: z.array(adminEntrySchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type AdminPage = z.infer<typeof adminPageSchema>;

/** importAdmins(orgId, emails): all or nothing. */
export const adminsImportedSchema = z.object({
  added: z.array(z.string()),
  /** Already admins: left unchanged. */
  existing: z.array(z.string()),
});
export type AdminsImported = z.infer<typeof adminsImportedSchema>;

/** deleteAdmins(orgId, emails): refused as a whole when no admin would remain. */
export const adminsRemovedSchema = z.object({ removed: z.array(z.string()) });
export type AdminsRemoved = z.infer<typeof adminsRemovedSchema>;
