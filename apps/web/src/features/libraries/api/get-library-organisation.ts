import { useQuery } from '@tanstack/react-query';
import { organisationSchema } from '@quire/core';
import { organisationQueryOptions } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const libraryOrganisationSchema = organisationSchema.pick({ id: true, name: true }).extend({
  features: organisationSchema.shape.features.pick({ orgLibraries: true, visitLibraries: true }),
});

const GET_LIBRARY_ORGANISATION = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) {
      id
      name
      features { orgLibraries visitLibraries }
    }
  }
`;

/**
 * What the library screens need of the organisation: its name and the two library flags (under the
 * organisation's key, so that the Teachers screen's refresh after a change reloads it too).
 */
export function useLibraryOrganisation(orgId: string) {
  return useQuery(organisationQueryOptions(orgId, queryKeys.libraryOrganisation(orgId), GET_LIBRARY_ORGANISATION, libraryOrganisationSchema));
}
