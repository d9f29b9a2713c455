import { z } from 'zod';
import { organisationLicenseSchema } from './licenses.js';
import { ltiCredentialsSchema } from './lti.js';
import { effectiveSettingsSchema, organisationSettingsSchema } from './settings.js';

/**
 * The organisation aggregate of the organisation service (spec §3 Organisation, §7 getOrganisations,
 * getOrganisationById, renameOrganisation). The console asks for a selection of these fields and parses the
 * answer with a `pick` of organisationSchema.
 */

/**
 * What the signed-in user may do in an organisation (docs/security.md): 'admin' manages it; 'library-manager'
 * (orgLibraries on) reads teachers and their libraries. The same values as the ID token's bc_orgs.
 */
export const orgAccessLevelSchema = z.enum(['admin', 'library-manager']);
export type OrgAccessLevel = z.infer<typeof orgAccessLevelSchema>;

/** A picker entry (getOrganisations). */
export const organisationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The organisation above this one (a district over its schools); null or absent at the top of a tree. */
  parentId: z.string().nullable().optional(),
});
export type OrganisationSummary = z.infer<typeof organisationSummarySchema>;

const organisationFeaturesSchema = z.object({
  orgLibraries: z.boolean(),
  studentPortfolios: z.boolean(),
  visitLibraries: z.boolean(),
});
export type OrganisationFeatures = z.infer<typeof organisationFeaturesSchema>;

export const organisationSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** A domain organisation: every teacher holds its apply-to-all licence. */
  isDomain: z.boolean(),
  features: organisationFeaturesSchema,
  /** The server answers `available` too (quantity minus allocated); the console works it out itself. */
  licenses: z.array(organisationLicenseSchema.extend({ available: z.number().optional() })),
  /** The admins' e-mails; empty for a library manager. */
  admins: z.array(z.object({ email: z.string() })),
  /** Admins only. */
  lti: ltiCredentialsSchema,
  /** The values in force (a district's lock or default included). */
  settings: organisationSettingsSchema,
  /** The values in force with their sources, and the organisation's policies for those below it. */
  effectiveSettings: effectiveSettingsSchema,
  /** The signed-in user's access here, decided by the server (the console's useOrgAccess). */
  access: orgAccessLevelSchema,
});
export type Organisation = z.infer<typeof organisationSchema>;

/** renameOrganisation(orgId, name). */
export const renamedOrganisationSchema = organisationSchema.pick({ id: true, name: true });
export type RenamedOrganisation = z.infer<typeof renamedOrganisationSchema>;
