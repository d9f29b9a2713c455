import { z } from 'zod';
import { UNLIMITED } from '../licenses.js';

/** A library quota on the wire: a number, or UNLIMITED where the database stores NULL. @internal */
export const libraryQuotaSchema = z.union([z.number(), z.literal(UNLIMITED)]);

/**
 * An organisation licence (spec §3 License), as getOrganisationById lists it for the licence
 * dashboard and the Teachers screen. The server's `available` is left out: the console works it out.
 */
/** One school's share of a district licence (docs/districts.md). @internal */
export const licenseAllocationSchema = z.object({
  /** The school. */
  organisationId: z.string(),
  organisationName: z.string(),
  /** Seats of the district licence allocated to the school: what it may assign to its own teachers. */
  seats: z.number().int(),
  /** Seats of the allocation in use at the school (its teachers holding it). */
  assigned: z.number().int(),
});
export type LicenseAllocation = z.infer<typeof licenseAllocationSchema>;

/** Where a school's licence comes from when it is a share of a district licence. @internal */
export const licenseSourceSchema = z.object({
  /** The district (the organisation directly above the school) and its licence. */
  organisationId: z.string(),
  organisationName: z.string(),
  licenseId: z.string(),
});
/** @internal */
export type LicenseSource = z.infer<typeof licenseSourceSchema>;

export const organisationLicenseSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Seats in use: members holding this licence, plus seats of it allocated to the schools below. */
  allocated: z.number(),
  quantity: z.number(),
  bookQuota: z.number(),
  libraryQuota: libraryQuotaSchema,
  /** A domain licence: every teacher holds it, it is never assigned one by one. */
  applyToAll: z.boolean(),
  /** A school's share of a district licence: the district it comes from (quantity is the share). */
  allocatedBy: licenseSourceSchema.nullable().optional(),
  /**
   * A licence of an organisation with schools below it (not an apply-to-all one): one entry per school directly
   * below, with its allocation (0 seats when none). Empty otherwise.
   */
  allocations: z.array(licenseAllocationSchema).optional(),
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

/** The path of a district licence's allocations. */
export const licenseAllocationsParamsSchema = z.object({ orgId: z.string().min(1), licenseId: z.string().min(1) });
/** The path of one school's allocation of a district licence. */
export const setLicenseAllocationParamsSchema = licenseAllocationsParamsSchema.extend({ schoolId: z.string().min(1) });

/** The most seats one allocation can name (far beyond any district; keeps the integer column safe). */
export const MAX_ALLOCATION_SEATS = 1_000_000;

/** PUT …/licenses/{licenseId}/allocations/{schoolId}: the school's new allocation; 0 returns every seat. */
export const setLicenseAllocationBodySchema = z.object({
  seats: z.number().int().min(0).max(MAX_ALLOCATION_SEATS),
});
/** @internal */
export type SetLicenseAllocationBody = z.infer<typeof setLicenseAllocationBodySchema>;

/** GET …/licenses/{licenseId}/allocations, and the answer of setting one: the district licence and its shares. */
export const licenseAllocationsSchema = z.object({
  licenseId: z.string(),
  name: z.string(),
  /** Total purchased. */
  quantity: z.number().int(),
  /** The district's own teachers holding the licence. */
  assignedHere: z.number().int(),
  /** Seats allocated to the schools, all together. */
  allocatedToSchools: z.number().int(),
  /** Seats neither assigned at the district nor allocated: what may still be allocated or assigned. */
  available: z.number().int(),
  /** One entry per school directly below the district, by name (0 seats when none allocated). */
  allocations: z.array(licenseAllocationSchema),
});
export type LicenseAllocations = z.infer<typeof licenseAllocationsSchema>;
