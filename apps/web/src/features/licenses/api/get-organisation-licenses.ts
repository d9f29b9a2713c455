import { queryOptions, useQuery } from '@tanstack/react-query';
import { available, organisationLicenseSchema, type OrganisationLicense } from '@quire/core';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/api/index.js';

const organisationLicensesSchema = z.object({
  id: z.string(),
  name: z.string(),
  isDomain: z.boolean(),
  licenses: z.array(organisationLicenseSchema),
  admins: z.array(z.object({ email: z.string() })),
});
export type OrganisationLicenses = z.infer<typeof organisationLicensesSchema>;

const GET_ORGANISATION_LICENSES = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) {
      id
      name
      isDomain
      licenses { id name allocated quantity bookQuota libraryQuota applyToAll }
      admins { email }
    }
  }
`;

export const organisationLicensesQueryKey = (orgId: string) => ['organisation', orgId, 'licenses'] as const;

/** getOrganisationById with the licences: the dashboard's name panel and table. */
export function organisationLicensesQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: organisationLicensesQueryKey(orgId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ getOrganisationById: unknown }, { id: string }>({
        query: GET_ORGANISATION_LICENSES,
        variables: { id: orgId },
        signal,
      });
      return organisationLicensesSchema.parse(data.getOrganisationById);
    },
  });
}

export function useOrganisationLicenses(orgId: string) {
  return useQuery(organisationLicensesQueryOptions(orgId));
}

/**
 * The licences the table lists: in a domain organisation only the apply-to-all licences show
 * (spec §6); the rest in the server's order.
 */
export function visibleLicenses(organisation: Pick<OrganisationLicenses, 'isDomain' | 'licenses'>): OrganisationLicense[] {
  return organisation.isDomain ? organisation.licenses.filter((l) => l.applyToAll) : organisation.licenses;
}

/** Library managers see the dashboard too, but only admins may change it (docs/teachers-api.md). */
export function isOrganisationAdmin(organisation: Pick<OrganisationLicenses, 'admins'>, email: string | null | undefined): boolean {
  const wanted = (email ?? '').toLowerCase();
  return wanted !== '' && organisation.admins.some((a) => a.email.toLowerCase() === wanted);
}

/** Available seats as the table shows them: never below zero. */
export function availableSeats(license: OrganisationLicense): number {
  return Math.max(0, available(license));
}
