import { z } from 'zod';
import { UNLIMITED } from '../licenses.js';

/** A library quota on the wire: a number, or UNLIMITED where the database stores NULL. @internal */
export const libraryQuotaSchema = z.union([z.number(), z.literal(UNLIMITED)]);

/**
 * An organisation licence (spec §3 License), as getOrganisationById lists it for the licence
 * dashboard and the Teachers screen. The server's `available` is left out: the console works it out.
 */
export const organisationLicenseSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Members holding this licence. */
  allocated: z.number(),
  quantity: z.number(),
  bookQuota: z.number(),
  libraryQuota: libraryQuotaSchema,
  /** A domain licence: every teacher holds it, it is never assigned one by one. */
  applyToAll: z.boolean(),
});

export type OrganisationLicense = z.infer<typeof organisationLicenseSchema>;

/** The member ids a licence is assigned to: the spec's bare list, or `{ memberIds }`. */
const assignedMemberIds = z.array(z.string().min(1)).min(1).max(100_000);
export const assignLicenseBodySchema = z.union([assignedMemberIds, z.object({ memberIds: assignedMemberIds })]);
export const assignLicenseParamsSchema = z.object({ orgId: z.string().min(1), licenseId: z.string().min(1) });

/** PUT {payments}/v1/admin/organisations/{orgId}/licenses/{licenseId} and assignLicenses. */
export const licenseAssignmentSchema = z.object({
  licenseId: z.string(),
  /** Members now on the licence who were not before. */
  assignedMemberIds: z.array(z.string()),
  allocated: z.number(),
  available: z.number(),
});
export type LicenseAssignment = z.infer<typeof licenseAssignmentSchema>;
