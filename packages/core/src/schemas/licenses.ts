import { z } from 'zod';
import { UNLIMITED } from '../licenses.js';

/** A library quota on the wire: a number, or UNLIMITED where the database stores NULL. */
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
