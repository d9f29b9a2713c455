/**
 * The build-time variables naming each service of spec §7, and the path the Quire server mounts each on: the
 * default, so the console works out of the box against one origin. Checked by hand rather than with zod, which
 * would otherwise be in the first download for this alone (docs/performance-log.md, "First load").
 */
const variables = {
  auth: ['VITE_AUTH_URL', '/auth'],
  api: ['VITE_API_URL', '/api'],
  payments: ['VITE_PAYMENTS_URL', '/payments'],
  analytics: ['VITE_ANALYTICS_URL', '/analytics'],
  assets: ['VITE_ASSETS_URL', '/assets'],
  graphql: ['VITE_GRAPHQL_URL', '/graphql'],
  rest: ['VITE_REST_URL', '/rest'],
  identity: ['VITE_IDENTITY_URL', '/identity'],
} as const;

/** Base URLs of the services the console calls ({auth}, {api}, … in spec §7). */
export interface ServiceUrls {
  auth: string;
  api: string;
  payments: string;
  analytics: string;
  assets: string;
  /** The organisation service's GraphQL endpoint. */
  graphql: string;
  /** The organisation service's REST root (portfolio exports). */
  rest: string;
  identity: string;
}

/** Thrown at start when a variable is wrong; the message lists every problem. @internal */
export class EnvError extends Error {
  override name = 'EnvError';
}

/**
 * Checks the variables once; an empty string counts as unset. A base URL is a path on this origin ('/api') or an
 * absolute http(s) URL, trimmed, without a trailing slash.
 * @internal
 */
export function parseEnv(source: Record<string, unknown>): ServiceUrls {
  const problems: string[] = [];
  const urls = {} as Record<keyof ServiceUrls, string>;
  for (const [service, [name, fallback]] of Object.entries(variables) as [keyof ServiceUrls, readonly [string, string]][]) {
    const given = source[name];
    if (given === undefined || given === '') {
      urls[service] = fallback;
      continue;
    }
    if (typeof given !== 'string') {
      problems.push(`${name}: must be a string`);
      continue;
    }
    const value = given.trim();
    if (!(value.startsWith('/') || /^https?:\/\/[^/]/.test(value))) {
      problems.push(`${name}: must be a path starting with '/' or an http(s) URL`);
      continue;
    }
    urls[service] = value.replace(/\/+$/, '');
  }
  if (problems.length > 0) throw new EnvError(`Invalid console configuration:\n${problems.join('\n')}`);
  return urls;
}

/** The service base URLs, checked once when the console starts. */
export const env: ServiceUrls = parseEnv(import.meta.env);
