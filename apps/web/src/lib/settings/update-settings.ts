import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganisationSettingsPayload, SettingsRead, SettingsUpdate } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl, type MutationCallbacks } from '../api/index.js';
import { queryKeys } from '../query-keys.js';
import { sourcesOf, withOwnApp, withOwnImageSearch } from './setting-sources.js';

const organisationSettingsSchema = lazyContract((c) => c.organisationSettingsSchema);

/** PATCH {api}/organisations/{orgId}/settings: sends only what changes; the server merges it and answers the settings in force after. */
function updateSettings(orgId: string, userId: string | undefined, change: SettingsUpdate): Promise<OrganisationSettingsPayload> {
  return apiRequest(serviceUrl('api', '/organisations', orgId, 'settings'), {
    method: 'PATCH',
    query: { userId },
    json: change,
    schema: organisationSettingsSchema,
  });
}

/** `settings` with the organisation's own values of `change` applied to exactly the keys it names. */
function applyChange(settings: SettingsRead, change: SettingsUpdate): SettingsRead {
  let next = settings;
  for (const [id, own] of Object.entries(change.apps ?? {})) next = withOwnApp(next, id, own ?? null);
  if (change.imageSearch !== undefined) next = withOwnImageSearch(next, change.imageSearch);
  return next;
}

/** `settings` with the keys `change` names (values and sources) taken from `source`; the other keys are left alone. */
function copyKeys(settings: SettingsRead, change: SettingsUpdate, source: SettingsRead): SettingsRead {
  const apps: Record<string, unknown> = { ...settings.apps };
  for (const id of Object.keys(change.apps ?? {})) {
    const value = source.apps[id as keyof typeof source.apps];
    if (value === undefined) delete apps[id];
    else apps[id] = value;
  }
  const imageSearch = change.imageSearch !== undefined ? source.imageSearch : settings.imageSearch;
  const full = sourcesOf(settings);
  const from = sourcesOf(source);
  if (!full || !from) return { ...settings, apps: apps as SettingsRead['apps'], imageSearch };
  const appSources = { ...full.sources.apps };
  for (const id of Object.keys(change.apps ?? {}) as Array<keyof typeof appSources>) appSources[id] = from.sources.apps[id];
  const imageSource = change.imageSearch !== undefined ? from.sources.imageSearch : full.sources.imageSearch;
  return { ...full, apps: apps as SettingsRead['apps'], imageSearch, sources: { apps: appSources, imageSearch: imageSource } };
}

/**
 * Changes settings, shown at once: the change is applied to the cached settings before the call (values and where they
 * come from, by the server's rule); the server's answer then sets the changed values, and a failure puts back what
 * they were. Only the changed keys move, so rows saved at the same time do not undo each other.
 */
export function useUpdateSettings<V extends { change: SettingsUpdate }>(
  orgId: string,
  userId: string | undefined,
  callbacks: MutationCallbacks<OrganisationSettingsPayload, V> = {},
) {
  const queryClient = useQueryClient();
  const key = queryKeys.settings(orgId);
  const update = (f: (old: SettingsRead) => SettingsRead) => queryClient.setQueryData<SettingsRead>(key, (old) => (old ? f(old) : old));
  return useMutation({
    mutationFn: (variables: V) => updateSettings(orgId, userId, variables.change),
    ...callbacks,
    onMutate: async (variables, context) => {
      await callbacks.onMutate?.(variables, context);
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<SettingsRead>(key);
      update((old) => applyChange(old, variables.change));
      return { previous };
    },
    onSuccess: (...args) => {
      const [saved, variables] = args;
      update((old) => {
        const { apps, imageSearch } = copyKeys(old, variables.change, { ...old, ...saved });
        return { ...old, apps, imageSearch };
      });
      return callbacks.onSuccess?.(...args);
    },
    onError: (...args) => {
      const [, variables, snapshot] = args;
      const previous = (snapshot as { previous?: SettingsRead } | undefined)?.previous;
      if (previous) update((old) => copyKeys(old, variables.change, previous));
      return callbacks.onError?.(...args);
    },
  });
}
