import { QueryClient } from '@tanstack/react-query';
import { isRefusal } from './api/user-facing.js';

/** A refusal (4xx, a GraphQL answer with errors, a broken contract) will not change by asking again; network failures and 5xx get two more tries. @internal */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isRefusal(error)) return false;
  return failureCount < 2;
}

/** The console's query client: one per page load (tests make their own). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
