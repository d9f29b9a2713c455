import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { consoleConfigSchema, type ConsoleConfig } from '@quire/core';
import { apiRequest } from './api/rest-client.js';
import { serviceUrl } from './api/service-url.js';
import { queryKeys } from './query-keys.js';

/**
 * Loaded once per page: the configuration does not change while the console runs. Parsed with its zod/mini schema,
 * which the first download carries: every screen waits for this answer.
 */
export const consoleConfigQueryOptions = queryOptions({
  queryKey: queryKeys.consoleConfig,
  queryFn: ({ signal }) => apiRequest(serviceUrl('api', '/console-config'), { schema: consoleConfigSchema, signal }),
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

/**
 * The console configuration. Suspends until it is loaded; the app's providers show a loader
 * meanwhile. Tests seed it with `queryClient.setQueryData(queryKeys.consoleConfig, config)`.
 */
export function useConsoleConfig(): ConsoleConfig {
  return useSuspenseQuery(consoleConfigQueryOptions).data;
}
