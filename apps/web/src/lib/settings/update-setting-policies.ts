import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EffectiveSettings, SettingPolicies, SettingPoliciesUpdate, SettingsRead } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl, type MutationCallbacks } from '../api/index.js';
import { queryKeys } from '../query-keys.js';
import { sourcesOf } from './setting-sources.js';

const effectiveSettingsSchema = lazyContract((c) => c.effectiveSettingsSchema);

/** PATCH {api}/organisations/{orgId}/setting-policies: a district's policies for its schools, only what changes. */
function updateSettingPolicies(orgId: string, change: SettingPoliciesUpdate): Promise<EffectiveSettings> {
  return apiRequest(serviceUrl('api', '/organisations', orgId, 'setting-policies'), { method: 'PATCH', json: change, schema: effectiveSettingsSchema });
}

/** `policies` with the keys `change` names taken from `source` (null: 'Let schools decide'). */
function withPolicies(policies: SettingPolicies, change: SettingPoliciesUpdate, source: { apps: SettingPoliciesUpdate['apps']; imageSearch?: SettingPolicies['imageSearch'] }): SettingPolicies {
  const apps: Record<string, unknown> = { ...policies.apps };
  for (const id of Object.keys(change.apps ?? {})) {
    const policy = source.apps?.[id as keyof NonNullable<SettingPoliciesUpdate['apps']>];
    if (policy) apps[id] = policy;
    else delete apps[id];
  }
  return { apps: apps as SettingPolicies['apps'], imageSearch: change.imageSearch !== undefined ? (source.imageSearch ?? null) : policies.imageSearch };
}

/** Changes a district's policies, shown at once and put back on failure, key by key like useUpdateSettings. */
export function useUpdateSettingPolicies<V extends { change: SettingPoliciesUpdate }>(orgId: string, callbacks: MutationCallbacks<EffectiveSettings, V> = {}) {
  const queryClient = useQueryClient();
  const key = queryKeys.settings(orgId);
  const update = (f: (old: SettingPolicies) => SettingPolicies) =>
    queryClient.setQueryData<SettingsRead>(key, (old) => {
      const full = sourcesOf(old);
      return full ? { ...full, policies: f(full.policies) } : old;
    });
  return useMutation({
    mutationFn: (variables: V) => updateSettingPolicies(orgId, variables.change),
    ...callbacks,
    onMutate: async (variables, context) => {
      await callbacks.onMutate?.(variables, context);
      await queryClient.cancelQueries({ queryKey: key });
      const previous = sourcesOf(queryClient.getQueryData<SettingsRead>(key))?.policies;
      update((old) => withPolicies(old, variables.change, { apps: variables.change.apps ?? {}, imageSearch: variables.change.imageSearch }));
      return { previous };
    },
    onSuccess: (...args) => {
      const [saved, variables] = args;
      update((old) => withPolicies(old, variables.change, saved.policies));
      return callbacks.onSuccess?.(...args);
    },
    onError: (...args) => {
      const [, variables, snapshot] = args;
      const previous = (snapshot as { previous?: SettingPolicies } | undefined)?.previous;
      if (previous) update((old) => withPolicies(old, variables.change, previous));
      return callbacks.onError?.(...args);
    },
  });
}
