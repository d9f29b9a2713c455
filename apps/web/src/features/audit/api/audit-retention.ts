import { useQuery } from '@tanstack/react-query';
import { apiRequest, lazyContract, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';
import type { AuditRetention } from '@quire/core';

const auditRetentionSchema = lazyContract((c) => c.auditRetentionSchema);

/** GET {api}/organisations/{orgId}/audit-settings: how long entries are kept. */
export function useAuditRetention(orgId: string) {
  return useQuery({
    queryKey: queryKeys.auditRetention(orgId),
    queryFn: ({ signal }) => apiRequest(serviceUrl('api', '/organisations', orgId, 'audit-settings'), { schema: auditRetentionSchema, signal }),
    retry: false,
  });
}

/** PUT {api}/organisations/{orgId}/audit-settings; the change itself appears in the log. */
export function useUpdateAuditRetention(orgId: string, callbacks: MutationCallbacks<AuditRetention, number>) {
  return useApiMutation<AuditRetention, number>({
    mutationFn: (retentionDays) =>
      apiRequest(serviceUrl('api', '/organisations', orgId, 'audit-settings'), { method: 'PUT', json: { retentionDays }, schema: auditRetentionSchema }),
    callbacks,
    store: (client, answer) => client.setQueryData(queryKeys.auditRetention(orgId), answer),
    reload: (client) => client.invalidateQueries({ queryKey: ['organisation', orgId, 'audit-events'] }),
  });
}
