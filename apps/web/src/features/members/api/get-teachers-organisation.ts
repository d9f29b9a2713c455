import { useQuery } from '@tanstack/react-query';
import { organisationSchema } from '@quire/core';
import type { z } from 'zod';
import { organisationQueryOptions } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const teachersOrganisationSchema = organisationSchema.pick({ id: true, isDomain: true, licenses: true }).extend({
  features: organisationSchema.shape.features.pick({ orgLibraries: true }),
});
export type TeachersOrganisation = z.infer<typeof teachersOrganisationSchema>;

const GET_TEACHERS_ORGANISATION = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) {
      id
      isDomain
      features { orgLibraries }
      licenses { id name allocated quantity bookQuota libraryQuota applyToAll allocatedBy { organisationId organisationName licenseId } }
    }
  }
`;

/** What the Teachers screen needs of the organisation: domain flag, orgLibraries and licences. */
export function useTeachersOrganisation(orgId: string) {
  return useQuery(organisationQueryOptions(orgId, queryKeys.teachersOrganisation(orgId), GET_TEACHERS_ORGANISATION, teachersOrganisationSchema));
}
