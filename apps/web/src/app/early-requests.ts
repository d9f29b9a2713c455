import type { QueryClient } from '@tanstack/react-query';
import { paths } from '../config/paths.js';
import { signInMethodsQueryOptions } from '../features/identity/api/sign-in-methods.js';
import { preloadContracts } from '../lib/api/contract.js';
import { consoleConfigQueryOptions } from '../lib/console-config.js';
import { askSessionEarly } from '../lib/session/http-session-backend.js';

/** The organisation a console path is in (/{orgId}/…), or null on the sign-in pages and the others outside one. */
function organisationInPath(pathname: string): string | null {
  const first = pathname.split('/')[1];
  if (!first || `/${first}` === paths.signIn.root() || `/${first}` === paths.unsupported) return null;
  try {
    return decodeURIComponent(first);
  } catch {
    return null;
  }
}

/**
 * The questions every page load asks before it can show anything, asked at once as the console's script starts
 * instead of one after another as each screen mounts: the console configuration, the session (then, for a verified
 * user, the organisations and the one the path names), and the schemas the answers are parsed with, or, on /sign-in,
 * the sign-in methods (parsed, with the configuration and the session, by the small schemas of the first download).
 * Before, each waited for the previous answer and for the route's code (docs/performance-log.md, "First load": five
 * round trips before /sign-in showed its first word). The screens ask as before and get these
 * answers (the query cache; the session backend's first calls).
 */
export function startEarlyRequests(queryClient: QueryClient, pathname: string): void {
  void queryClient.prefetchQuery(consoleConfigQueryOptions);
  askSessionEarly(organisationInPath(pathname));
  if (pathname === paths.signIn.root()) void queryClient.prefetchQuery(signInMethodsQueryOptions);
  // /sign-in parses its first answers with the small schemas of the first download: zod's classic build and the other
  // schemas come when a sign-in needs them, not beside the page's first requests.
  else preloadContracts();
}
