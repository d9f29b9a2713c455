import { organisationLicenseSchema } from '@quire/core';
import { z } from 'zod';

/** The licence a teacher holds, as the members list shows it (docs/teachers-api.md). */
export const memberLicenseSchema = organisationLicenseSchema.pick({
  id: true,
  name: true,
  bookQuota: true,
  libraryQuota: true,
  applyToAll: true,
});
export type MemberLicense = z.infer<typeof memberLicenseSchema>;

/** A teacher (spec §3 Teacher / member). */
export const memberSchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  email: z.string(),
  displayName: z.string(),
  role: z.number(),
  license: memberLicenseSchema.nullable(),
  pending: z.boolean(),
  badges: z.object({ calevel1: z.string().nullable(), calevel2: z.string().nullable() }),
  certifying: z.number().nullable(),
  isAmbassador: z.boolean(),
  isStudent: z.boolean(),
  revokedAt: z.string().nullable(),
  signedUpAt: z.string().nullable().optional(),
});
export type Member = z.infer<typeof memberSchema>;

/** One page of the list: the matches of the search on this page, and how many match in all. */
export const membersPageSchema = z.object({
  members: z.array(memberSchema),
  total: z.number(),
  page: z.number().optional(),
  pageSize: z.number().optional(),
});
export type MembersPage = z.infer<typeof membersPageSchema>;
