import { renamedOrganisationSchema, type RenamedOrganisation } from '@quire/core';
import { graphqlRequest, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import type { OrganisationLicenses } from './get-organisation-licenses.js';

const RENAME_ORGANISATION = /* GraphQL */ `
  mutation renameOrganisation($orgId: ID!, $name: String!) {
    renameOrganisation(orgId: $orgId, name: $name) { id name }
  }
`;

/** renameOrganisation(orgId, name): the server trims and checks the name again. */
function renameOrganisation(orgId: string, name: string): Promise<RenamedOrganisation> {
  return graphqlRequest({ query: RENAME_ORGANISATION, variables: { orgId, name }, field: 'renameOrganisation', schema: renamedOrganisationSchema });
}

/** Renames the organisation and keeps the dashboard's cached name in step. */
export function useRenameOrganisation(orgId: string, callbacks: MutationCallbacks<RenamedOrganisation, string> = {}) {
  return useApiMutation({
    mutationFn: (name: string) => renameOrganisation(orgId, name),
    callbacks,
    store: (queryClient, renamed) =>
      queryClient.setQueryData<OrganisationLicenses>(queryKeys.organisationLicenses(orgId), (old) => (old ? { ...old, name: renamed.name } : old)),
  });
}
