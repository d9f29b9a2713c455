import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ltiCredentialsSchema, organisationSchema, type LtiCredentials } from '@quire/core';
import { organisationQueryOptions } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** Every field of the credentials the LMS page shows; the generate and revoke mutations answer the same. */
export const LTI_FIELDS = 'consumerKey consumerSecret launchUrl domain cartridgeUrl usersCreated';

const GET_LTI = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) { id lti { ${LTI_FIELDS} } }
  }
`;

const organisationLtiSchema = organisationSchema.pick({ id: true }).extend({ lti: ltiCredentialsSchema });

/** The organisation's LTI credentials (admins only: others get a GraphqlError with code admin_required). */
export function useLtiCredentials(orgId: string) {
  return useQuery({ ...organisationQueryOptions(orgId, queryKeys.lti(orgId), GET_LTI, organisationLtiSchema), select: (organisation) => organisation.lti });
}

/** Puts credentials a mutation answered into the cache (which holds getOrganisationById's selection { id, lti }). */
export function storeLtiCredentials(queryClient: QueryClient, orgId: string, credentials: LtiCredentials): void {
  queryClient.setQueryData(queryKeys.lti(orgId), { id: orgId, lti: credentials });
}
