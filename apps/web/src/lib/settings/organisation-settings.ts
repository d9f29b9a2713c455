import { queryOptions, useQuery } from '@tanstack/react-query';
import { organisationSettingsSchema, type OrganisationSettingsPayload, type SettingsUpdate } from '@quire/core';
import { z } from 'zod';
import { apiRequest, graphqlRequest, serviceUrl } from '../api/index.js';

/** Organisation settings, shared by Manage Apps and Image Search: GET / PATCH {api}/organisations/{orgId}/settings (docs/settings.md). */
export const settingsQueryKey = (orgId: string) => ['organisation', orgId, 'settings'] as const;

export function settingsQueryOptions(orgId: string, userId: string | undefined) {
  return queryOptions({
    queryKey: settingsQueryKey(orgId),
    queryFn: ({ signal }) =>
      apiRequest(serviceUrl('api', '/organisations', orgId, 'settings'), { query: { userId }, schema: organisationSettingsSchema, signal }),
  });
}

export function useSettings(orgId: string, userId: string | undefined) {
  return useQuery(settingsQueryOptions(orgId, userId));
}

/** Sends only what changes; the server merges it and answers the settings after the change. */
export function updateSettings(orgId: string, userId: string | undefined, change: SettingsUpdate): Promise<OrganisationSettingsPayload> {
  return apiRequest(serviceUrl('api', '/organisations', orgId, 'settings'), {
    method: 'PATCH',
    query: { userId },
    json: change,
    schema: organisationSettingsSchema,
  });
}

const GET_ADMIN_EMAILS = /* GraphQL */ `
  query getOrganisationById($id: ID!) {
    getOrganisationById(id: $id) { id admins { email } }
  }
`;
const adminEmailsSchema = z.object({ id: z.string(), admins: z.array(z.object({ email: z.string() })) });

/** Only admins change settings; a library manager sees them read-only (same cache entry as the Admin screen's). */
export function useIsAdmin(orgId: string, email: string | undefined): boolean {
  const { data } = useQuery({
    queryKey: ['organisation', orgId, 'admin-emails'] as const,
    queryFn: async ({ signal }) => {
      const answer = await graphqlRequest<{ getOrganisationById: unknown }, { id: string }>({ query: GET_ADMIN_EMAILS, variables: { id: orgId }, signal });
      return adminEmailsSchema.parse(answer.getOrganisationById).admins.map((a) => a.email.toLowerCase());
    },
  });
  const mine = (email ?? '').toLowerCase();
  return mine !== '' && (data ?? []).includes(mine);
}
