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
      licenses { id name allocated quantity bookQuota libraryQuota applyToAll }
    }
  }
`;

/** getOrganisationById with the licences: the dashboard's name panel and table. */
export function useOrganisationLicenses(orgId: string) {
  return useQuery(organisationQueryOptions(orgId, queryKeys.organisationLicenses(orgId), GET_ORGANISATION_LICENSES, organisationLicensesSchema));
}

/**
 * The licences the table lists: in a domain organisation only the apply-to-all licences show
 * (spec §6); the rest in the server's order.
 */
export function visibleLicenses(organisation: Pick<OrganisationLicenses, 'isDomain' | 'licenses'>): OrganisationLicense[] {
  return organisation.isDomain ? organisation.licenses.filter((l) => l.applyToAll) : organisation.licenses;
}
