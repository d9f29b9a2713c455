import { queryOptions, useQuery } from '@tanstack/react-query';
import { organisationLicenseSchema } from '@quire/core';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/api/index.js';

const teachersOrganisationSchema = z.object({
  id: z.string(),
  isDomain: z.boolean(),
  features: z.object({ orgLibraries: z.boolean() }),
  licenses: z.array(organisationLicenseSchema),
  admins: z.array(z.object({ email: z.string() })),
});
export type TeachersOrganisation = z.infer<typeof teachersOrganisationSchema>;

const GET_TEACHERS_ORGANISATION = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) {
      id
      isDomain
      features { orgLibraries }
      licenses { id name allocated quantity bookQuota libraryQuota applyToAll }
      admins { email }
    }
  }
`;

export const teachersOrganisationQueryKey = (orgId: string) => ['organisation', orgId, 'teachers-screen'] as const;

/** What the Teachers screen needs of the organisation: domain flag, orgLibraries, licences and admins. */
export function teachersOrganisationQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: teachersOrganisationQueryKey(orgId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ getOrganisationById: unknown }, { id: string }>({
        query: GET_TEACHERS_ORGANISATION,
        variables: { id: orgId },
        signal,
      });
      return teachersOrganisationSchema.parse(data.getOrganisationById);
    },
  });
}

export function useTeachersOrganisation(orgId: string) {
  return useQuery(teachersOrganisationQueryOptions(orgId));
}
