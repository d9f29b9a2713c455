import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { graphqlRequest } from '../../../lib/api/index.js';

const GET_ADMIN_EMAILS = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) { id admins { email } }
  }
`;

const schema = z.object({ id: z.string(), admins: z.array(z.object({ email: z.string() })) });

/** The whole admins list (e-mails only): decides whether the signed-in user may change admins. */
export function adminEmailsQueryOptions(orgId: string) {
  return queryOptions({
    queryKey: ['organisation', orgId, 'admin-emails'] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest<{ getOrganisationById: unknown }, { id: string }>({ query: GET_ADMIN_EMAILS, variables: { id: orgId }, signal });
      return schema.parse(data.getOrganisationById).admins.map((a) => a.email.toLowerCase());
    },
  });
}

/** True when the signed-in user is one of the organisation's admins (library managers only read the list). */
export function useIsOrganisationAdmin(orgId: string, email: string | null | undefined): boolean {
  const { data } = useQuery(adminEmailsQueryOptions(orgId));
  const mine = (email ?? '').toLowerCase();
  return mine !== '' && (data ?? []).includes(mine);
}
