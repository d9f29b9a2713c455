import { useQuery } from '@tanstack/react-query';
import { rosterOrgSetupSchema, type RosterOrgLinks, type RosterOrgSetup } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const orgsUrl = (orgId: string) => serviceUrl('api', '/organisations', orgId, 'rostering', 'orgs');

/** GET {api}/organisations/{orgId}/rostering/orgs: the OneRoster org ids matched so far and the organisations they may point to. */
export function useRosterOrgs(orgId: string) {
  return useQuery({
    queryKey: queryKeys.rosterOrgs(orgId),
    queryFn: ({ signal }) => apiRequest(orgsUrl(orgId), { schema: rosterOrgSetupSchema, signal }),
    retry: false,
  });
}

/** PUT {api}/organisations/{orgId}/rostering/orgs: the whole list of links, answered as saved. */
export function useSaveRosterOrgs(orgId: string, callbacks?: MutationCallbacks<RosterOrgSetup, RosterOrgLinks>) {
  return useApiMutation({
    mutationFn: (links: RosterOrgLinks) => apiRequest(orgsUrl(orgId), { method: 'PUT', json: links, schema: rosterOrgSetupSchema }),
    callbacks,
    store: (queryClient, data) => queryClient.setQueryData(queryKeys.rosterOrgs(orgId), data),
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.rosterOrgs(orgId) }),
    reloadAfter: 'error',
  });
}
