import { useQuery } from '@tanstack/react-query';
import { rosterHistorySchema, rosterImportSchema, type RosterImport, type RosterUploadQuery } from '@quire/core';
import { apiRequest, serviceUrl, useApiMutation, type MutationCallbacks } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const importsUrl = (orgId: string, ...rest: string[]) => serviceUrl('api', '/organisations', orgId, 'rostering', 'imports', ...rest);

/** An import the job has not finished with: the page polls it. */
export const isRunning = (status: RosterImport['status']) => status === 'queued' || status === 'applying';
const POLL_MS = 1000;

/** GET {api}/organisations/{orgId}/rostering/imports: the last 50 imports, newest first. */
export function useRosterHistory(orgId: string) {
  return useQuery({
    queryKey: queryKeys.rosterHistory(orgId),
    queryFn: ({ signal }) => apiRequest(importsUrl(orgId), { schema: rosterHistorySchema, signal }),
    retry: false,
  });
}

/** GET {api}/organisations/{orgId}/rostering/imports/{id}: the preview, state and progress; polled while the job runs. */
export function useRosterImport(orgId: string, importId: string | null) {
  return useQuery({
    queryKey: queryKeys.rosterImport(orgId, importId ?? ''),
    queryFn: ({ signal }) => apiRequest(importsUrl(orgId, importId ?? ''), { schema: rosterImportSchema, signal }),
    enabled: importId !== null,
    retry: false,
    refetchInterval: (query) => (query.state.data && isRunning(query.state.data.status) ? POLL_MS : false),
  });
}

interface UploadVariables {
  file: File;
  options: RosterUploadQuery;
  idempotencyKey: string;
}

/** POST {api}/organisations/{orgId}/rostering/imports: the zip as the body, the choices in the query; answers the preview. */
export function useUploadRoster(orgId: string, callbacks?: MutationCallbacks<RosterImport, UploadVariables>) {
  return useApiMutation({
    mutationFn: ({ file, options, idempotencyKey }: UploadVariables) =>
      apiRequest(importsUrl(orgId), {
        method: 'POST',
        query: { ...options },
        body: file,
        headers: { 'Content-Type': 'application/zip' },
        schema: rosterImportSchema,
        idempotencyKey,
      }),
    callbacks,
    store: (queryClient, data) => queryClient.setQueryData(queryKeys.rosterImport(orgId, data.id), data),
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.rosterHistory(orgId) }),
  });
}

interface ImportAction {
  importId: string;
  idempotencyKey: string;
}

/** POST …/imports/{id}/apply, …/cancel or …/preview: each answers the import as it is now. */
export function useRosterImportAction(orgId: string, action: 'apply' | 'cancel' | 'preview', callbacks?: MutationCallbacks<RosterImport, ImportAction>) {
  return useApiMutation({
    mutationFn: ({ importId, idempotencyKey }: ImportAction) => apiRequest(importsUrl(orgId, importId, action), { method: 'POST', schema: rosterImportSchema, idempotencyKey }),
    callbacks,
    store: (queryClient, data) => queryClient.setQueryData(queryKeys.rosterImport(orgId, data.id), data),
    reload: (queryClient) => queryClient.invalidateQueries({ queryKey: queryKeys.rosterHistory(orgId) }),
  });
}

/** GET …/imports/{id}/errors.csv: file, line, column, reason. */
export function fetchRosterErrorsCsv(orgId: string, importId: string): Promise<Blob> {
  return apiRequest<Blob>(importsUrl(orgId, importId, 'errors.csv'), { headers: { Accept: 'text/csv' }, responseType: 'blob' });
}
