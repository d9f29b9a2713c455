import { queryOptions, useQuery } from '@tanstack/react-query';
import { ltiCredentialsSchema, type LtiCredentials } from '@quire/core';
import { z } from 'zod';
import { GraphqlError, graphqlRequest } from '../../../lib/api/index.js';

const FIELDS = 'consumerKey consumerSecret launchUrl domain cartridgeUrl';

const GET_LTI = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) { id lti { ${FIELDS} } }
  }
`;

const GENERATE = /* GraphQL */ `
  mutation generateLTICredentials($orgId: ID!) {
    generateLTICredentials(orgId: $orgId) { ${FIELDS} }
  }
`;

const REVOKE = /* GraphQL */ `
  mutation revokeLTICredentials($orgId: ID!) {
    revokeLTICredentials(orgId: $orgId) { ${FIELDS} }
  }
`;

export const ltiQueryKey = (orgId: string) => ['organisation', orgId, 'lti'] as const;

/** The organisation's LTI credentials (admins only: others get a GraphqlError with code admin_required). */
export function ltiCredentialsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: ltiQueryKey(orgId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ getOrganisationById: unknown }>({ query: GET_LTI, variables: { id: orgId }, signal });
      return z.object({ lti: ltiCredentialsSchema }).parse(data.getOrganisationById).lti;
    },
    // A refusal (an answer with errors) will not change by asking again; a network failure gets two more tries.
    retry: (failures, error) => !(error instanceof GraphqlError && error.errors.length > 0) && failures < 2,
  });
}

export function useLtiCredentials(orgId: string) {
  return useQuery(ltiCredentialsQueryOptions(orgId));
}

export async function generateLtiCredentials(orgId: string): Promise<LtiCredentials> {
  const data = await graphqlRequest<{ generateLTICredentials: unknown }>({ query: GENERATE, variables: { orgId } });
  return ltiCredentialsSchema.parse(data.generateLTICredentials);
}

export async function revokeLtiCredentials(orgId: string): Promise<LtiCredentials> {
  const data = await graphqlRequest<{ revokeLTICredentials: unknown }>({ query: REVOKE, variables: { orgId } });
  return ltiCredentialsSchema.parse(data.revokeLTICredentials);
}
