import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AppPermission, OrganisationSettingsPayload, SettingsUpdate } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl, type MutationCallbacks } from '../api/index.js';

const organisationSettingsSchema = lazyContract((c) => c.organisationSettingsSchema);
import { queryKeys } from '../query-keys.js';

type Settings = OrganisationSettingsPayload;
type Apps = Settings['apps'];

/** PATCH {api}/organisations/{orgId}/settings: sends only what changes; the server merges it and answers the settings after. */
function updateSettings(orgId: string, userId: string | undefined, change: SettingsUpdate): Promise<Settings> {
  return apiRequest(serviceUrl('api', '/organisations', orgId, 'settings'), {
    method: 'PATCH',
    query: { userId },
    json: change,
    schema: organisationSettingsSchema,
  });
}

function withApp(apps: Apps, id: string, value: AppPermission | null | undefined): Apps {
  const next: Record<string, AppPermission> = { ...apps };
  if (value === null || value === undefined) delete next[id];
  else next[id] = value;
  return next as Apps;
}

/** `settings` with the values of `source` for exactly the keys `change` names; the other keys are left alone. */
function merge(settings: Settings, change: SettingsUpdate, source: { apps: Partial<Record<string, AppPermission | null>>; imageSearch?: Settings['imageSearch'] }): Settings {
  let apps = settings.apps;
  for (const id of Object.keys(change.apps ?? {})) apps = withApp(apps, id, source.apps[id]);
  return { apps, imageSearch: change.imageSearch !== undefined ? (source.imageSearch ?? null) : settings.imageSearch };
}

/**
 * Changes settings, shown at once: the change is applied to the cached settings before the call; the server's
 * answer then sets the changed keys, and a failure puts back what they were. Only the changed keys move, so
 * rows saved at the same time do not undo each other.
 */
export function useUpdateSettings<V extends { change: SettingsUpdate }>(
  orgId: string,
  userId: string | undefined,
  callbacks: MutationCallbacks<Settings, V> = {},
) {
  const queryClient = useQueryClient();
  const key = queryKeys.settings(orgId);
  const update = (f: (old: Settings) => Settings) => queryClient.setQueryData<Settings>(key, (old) => (old ? f(old) : old));
  return useMutation({
    mutationFn: (variables: V) => updateSettings(orgId, userId, variables.change),
    ...callbacks,
    onMutate: async (variables, context) => {
      await callbacks.onMutate?.(variables, context);
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Settings>(key);
      update((old) => merge(old, variables.change, { apps: variables.change.apps ?? {}, imageSearch: variables.change.imageSearch }));
      return { previous };
    },
    onSuccess: (...args) => {
      const [saved, variables] = args;
      update((old) => merge(old, variables.change, saved));
      return callbacks.onSuccess?.(...args);
    },
    onError: (...args) => {
      const [, variables, snapshot] = args;
      const previous = (snapshot as { previous?: Settings } | undefined)?.previous;
      if (previous) update((old) => merge(old, variables.change, previous));
      return callbacks.onError?.(...args);
    },
  });
}
