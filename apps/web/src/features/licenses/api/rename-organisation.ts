import { useMutation, useQueryClient } from '@tanstack/react-query';
import { graphqlRequest } from '../../../lib/api/index.js';
import { organisationLicensesQueryKey, type OrganisationLicenses } from './get-organisation-licenses.js';

const RENAME_ORGANISATION = /* GraphQL */ `
  mutation renameOrganisation($orgId: ID!, $name: String!) {
    renameOrganisation(orgId: $orgId, name: $name) { id name }
  }
`;

export interface RenamedOrganisation {
  id: string;
  name: string;
}

/** renameOrganisation(orgId, name): the server trims and checks the name again. */
export async function renameOrganisation(orgId: string, name: string): Promise<RenamedOrganisation> {
  const data = await graphqlRequest<{ renameOrganisation: RenamedOrganisation }, { orgId: string; name: string }>({
    query: RENAME_ORGANISATION,
    variables: { orgId, name },
  });
  return data.renameOrganisation;
}

/** Renames the organisation and keeps the dashboard's cached name in step. */
export function useRenameOrganisation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => renameOrganisation(orgId, name),
    onSuccess: (renamed) => {
      queryClient.setQueryData<OrganisationLicenses>(organisationLicensesQueryKey(orgId), (old) =>
        old ? { ...old, name: renamed.name } : old,
      );
    },
  });
}
