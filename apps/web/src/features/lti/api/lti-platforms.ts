import { useQuery } from '@tanstack/react-query';
import { ltiAdvantageSchema, ltiPlatformSchema, ltiRegistrationLinkSchema, type LtiPlatform, type LtiPlatformInput, type LtiRegistrationLink } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import type { MutationCallbacks } from '../../../lib/api/mutation-callbacks.js';
import { useApiMutation } from '../../../lib/api/use-api-mutation.js';
import { queryKeys } from '../../../lib/query-keys.js';

const platformsUrl = (orgId: string, ...rest: string[]) => serviceUrl('api', '/organisations', orgId, 'lti', 'platforms', ...rest);

/** The tool's LTI 1.3 values and the organisation's registered platforms (admins only). */
export function useLtiPlatforms(orgId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.ltiPlatforms(orgId),
    queryFn: ({ signal }) => apiRequest(platformsUrl(orgId), { schema: ltiAdvantageSchema, signal }),
    enabled: enabled && orgId !== '',
  });
}

export interface SavePlatform {
  /** Absent: a new platform. */
  id?: string;
  input: LtiPlatformInput;
}

/** Registers or changes a platform; the list is read again after it. */
export function useSaveLtiPlatform(orgId: string, callbacks?: MutationCallbacks<LtiPlatform, SavePlatform>) {
  return useApiMutation<LtiPlatform, SavePlatform>({
    mutationFn: ({ id, input }) =>
      id
        ? apiRequest(platformsUrl(orgId, id), { method: 'PUT', json: input, schema: ltiPlatformSchema })
        : apiRequest(platformsUrl(orgId), { method: 'POST', json: input, schema: ltiPlatformSchema }),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.ltiPlatforms(orgId) }),
  });
}

export function useRemoveLtiPlatform(orgId: string, callbacks?: MutationCallbacks<void, string>) {
  return useApiMutation<void, string>({
    mutationFn: async (id) => {
      await apiRequest(platformsUrl(orgId, id), { method: 'DELETE', responseType: 'none' });
    },
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.ltiPlatforms(orgId) }),
  });
}

/**
 * A registration address for LTI Dynamic Registration (single use, 10 minutes). The list is read again afterwards, as
 * a platform may have registered with an earlier address meanwhile.
 */
export function useLtiRegistrationLink(orgId: string, callbacks?: MutationCallbacks<LtiRegistrationLink, void>) {
  return useApiMutation<LtiRegistrationLink, void>({
    mutationFn: () => apiRequest(serviceUrl('api', '/organisations', orgId, 'lti', 'registrations'), { method: 'POST', schema: ltiRegistrationLinkSchema }),
    callbacks,
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.ltiPlatforms(orgId) }),
  });
}
