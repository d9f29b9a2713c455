import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, serviceUrl } from '../../../lib/api/index.js';

const signInMethodsSchema = z.object({ google: z.boolean(), office365: z.boolean(), email: z.boolean() });

export type SignInMethods = z.infer<typeof signInMethodsSchema>;

/** GET {auth}/methods: which providers this server is configured for. */
export const signInMethodsQueryOptions = queryOptions({
  queryKey: ['auth', 'methods'],
  queryFn: ({ signal }) => apiRequest(serviceUrl('auth', '/methods'), { schema: signInMethodsSchema, signal }),
  staleTime: Number.POSITIVE_INFINITY,
});

/** The configured methods; while loading (or if the call fails) every method is offered. */
export function useSignInMethods(): SignInMethods {
  return useQuery(signInMethodsQueryOptions).data ?? { google: true, office365: true, email: true };
}
