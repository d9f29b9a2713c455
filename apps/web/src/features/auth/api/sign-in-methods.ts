import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SignInMethods } from '@quire/core';
import { apiRequest, lazyContract, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

const signInMethodsSchema = lazyContract((c) => c.signInMethodsSchema);

/** GET {auth}/methods: which providers this server is configured for. */
export const signInMethodsQueryOptions = queryOptions({
  queryKey: queryKeys.signInMethods,
  queryFn: ({ signal }) => apiRequest(serviceUrl('auth', '/methods'), { schema: signInMethodsSchema, signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The configured methods; while loading (or if the call fails) every method is offered. */
export function useSignInMethods(): SignInMethods {
  return useQuery(signInMethodsQueryOptions).data ?? { google: true, office365: true, email: true };
}
