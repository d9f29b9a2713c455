/**
 * The page a signed-out visitor asked for, kept while they sign in (spec §2: "after login the user
 * goes to the original location"). Session storage, not router state, so it survives the sign-in
 * area's own navigation and reloads, and stays per tab.
 */
const KEY = 'quire.returnTo';

export function rememberReturnTo(path: string): void {
  // Only paths inside the console: never an outside address, never the sign-in area itself.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/sign-in')) return;
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    // blocked storage: the user lands on the home page instead
  }
}

export function peekReturnTo(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function takeReturnTo(): string | null {
  const path = peekReturnTo();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to clean
  }
  return path;
}

/** The organisation id a console path names (/{orgId}/…), if any. */
export function organisationInPath(path: string | null): string | null {
  const first = path?.split(/[?#]/)[0]?.split('/')[1];
  return first ? decodeURIComponent(first) : null;
}
