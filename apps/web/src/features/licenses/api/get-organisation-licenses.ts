import { useQuery } from '@tanstack/react-query';
import { organisationSchema, type OrganisationLicense } from '@quire/core';
import type { z } from 'zod';
import { organisationQueryOptions } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const organisationLicensesSchema = organisationSchema.pick({ id: true, name: true, isDomain: true, licenses: true });
export type OrganisationLicenses = z.infer<typeof organisationLicensesSchema>;

const GET_ORGANISATION_LICENSES = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) {
      id
      name
      isDomain
      licenses {
        id name allocated quantity bookQuota libraryQuota applyToAll
        allocatedBy { organisationId organisationName licenseId }
        allocations { organisationId organisationName seats assigned }
      }
    }
  }
`;

/** getOrganisationById with the licences: the dashboard's name panel and table. */
export function useOrganisationLicenses(orgId: string) {
  return useQuery(organisationQueryOptions(orgId, queryKeys.organisationLicenses(orgId), GET_ORGANISATION_LICENSES, organisationLicensesSchema));
}

/**
 * The licences the table lists: in a domain organisation only the apply-to-all licences show
 * (spec §6), and a district's licences it allocates to its schools; the rest in the server's order.
 */
export function visibleLicenses(organisation: Pick<OrganisationLicenses, 'isDomain' | 'licenses'>): OrganisationLicense[] {
  return organisation.isDomain ? organisation.licenses.filter((l) => l.applyToAll || isDistrictLicense(l)) : organisation.licenses;
}

/** A licence of an organisation with schools below it, whose seats it may allocate to them. */
export function isDistrictLicense(license: OrganisationLicense): boolean {
  return (license.allocations?.length ?? 0) > 0;
}

/** A district licence's figures: seats allocated to the schools, and those its own teachers hold. */
export function districtFigures(license: OrganisationLicense): { allocatedToSchools: number; assignedHere: number; available: number } {
  const allocatedToSchools = (license.allocations ?? []).reduce((sum, a) => sum + a.seats, 0);
  return { allocatedToSchools, assignedHere: license.allocated - allocatedToSchools, available: license.quantity - license.allocated };
}
