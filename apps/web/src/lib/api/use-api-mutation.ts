import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MutationCallbacks } from './mutation-callbacks.js';

export interface ApiMutation<TData, TVariables> {
  /** The call. */
  mutationFn: (variables: TVariables) => Promise<TData>;
  /** What the screen adds (notifications, local state). */
  callbacks?: MutationCallbacks<TData, TVariables>;
  /** Puts the answer into the cache, where it replaces what was there (before the screen's onSuccess). */
  store?: (queryClient: QueryClient, data: TData, variables: TVariables) => void;
  /** What the change makes stale in the cache, reloaded after the call. */
  reload?: (queryClient: QueryClient, variables: TVariables) => Promise<unknown>;
  /** Reload after every call (default), only after a success, or only after a failure. */
  reloadAfter?: 'settled' | 'success' | 'error';
}

/**
 * The hook of an API file's mutation: its call, its own cache update, and the screen's callbacks, so every
 * screen reloads the same data after the same change.
 */
export function useApiMutation<TData, TVariables>({ mutationFn, callbacks = {}, store, reload, reloadAfter = 'settled' }: ApiMutation<TData, TVariables>) {
  const queryClient = useQueryClient();
  const reloadWhen = (moment: typeof reloadAfter, variables: TVariables) => (reload && reloadAfter === moment ? reload(queryClient, variables) : undefined);
  return useMutation({
    mutationFn,
    ...callbacks,
    onSuccess: async (...args) => {
      store?.(queryClient, args[0], args[1]);
      await callbacks.onSuccess?.(...args);
      void reloadWhen('success', args[1]);
    },
    onError: async (...args) => {
      void reloadWhen('error', args[1]);
      await callbacks.onError?.(...args);
    },
    onSettled: async (...args) => {
      await callbacks.onSettled?.(...args);
      await reloadWhen('settled', args[2]);
    },
  });
}
