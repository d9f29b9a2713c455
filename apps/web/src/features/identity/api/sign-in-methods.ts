import { queryOptions, useQuery } from '@tanstack/react-query';
import { signInMethodsSchema, type SignInMethods } from '@quire/core';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** GET {auth}/methods: which providers this server is configured for (its zod/mini schema is in the first download). */
export const signInMethodsQueryOptions = queryOptions({
  queryKey: queryKeys.signInMethods,
  queryFn: ({ signal }) => apiRequest(serviceUrl('auth', '/methods'), { schema: signInMethodsSchema, signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The configured methods; while loading (or if the call fails) every method is offered. */
export function useSignInMethods(): SignInMethods {
  return useQuery(signInMethodsQueryOptions).data ?? { google: true, office365: true, email: true };
}
