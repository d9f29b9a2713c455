import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/api/index.js';

const libraryOrganisationSchema = z.object({
  id: z.string(),
  name: z.string(),
  features: z.object({ orgLibraries: z.boolean(), visitLibraries: z.boolean() }),
  admins: z.array(z.object({ email: z.string() })),
});
export type LibraryOrganisation = z.infer<typeof libraryOrganisationSchema>;

const GET_LIBRARY_ORGANISATION = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) {
      id
      name
      features { orgLibraries visitLibraries }
      admins { email }
    }
  }
`;

/** Under ['organisation', orgId] so that the Teachers screen's refresh after a change reloads it too. */
export const libraryOrganisationQueryKey = (orgId: string) => ['organisation', orgId, 'teacher-libraries'] as const;

/** What the library screens need of the organisation: its name, the two library flags and the admins list. */
export function libraryOrganisationQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: libraryOrganisationQueryKey(orgId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ getOrganisationById: unknown }, { id: string }>({
        query: GET_LIBRARY_ORGANISATION,
        variables: { id: orgId },
        signal,
      });
      return libraryOrganisationSchema.parse(data.getOrganisationById);
    },
  });
}

export function useLibraryOrganisation(orgId: string) {
  return useQuery(libraryOrganisationQueryOptions(orgId));
}
