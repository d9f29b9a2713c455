import type { UseMutationOptions } from '@tanstack/react-query';

/**
 * What a screen adds to an API file's mutation hook: its notifications and local state. The hook itself owns
 * the call and the cache invalidation, so every caller reloads the same data after the same change.
 */
export type MutationCallbacks<TData, TVariables, TContext = unknown> = Pick<
  UseMutationOptions<TData, Error, TVariables, TContext>,
  'onMutate' | 'onSuccess' | 'onError' | 'onSettled'
>;
