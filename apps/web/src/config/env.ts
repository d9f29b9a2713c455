import { z } from 'zod';

/** A service base URL: a path on this origin ('/api') or an absolute http(s) URL; no trailing slash. */
const baseUrlSchema = z
  .string()
  .trim()
  .refine((value) => value.startsWith('/') || /^https?:\/\/[^/]/.test(value), {
    message: "must be a path starting with '/' or an http(s) URL",
  })
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * The build-time variables naming each service of spec §7. Every one defaults to the path the Quire
 * server mounts it on, so the console works out of the box against one origin.
 */
const envSchema = z.object({
  VITE_AUTH_URL: baseUrlSchema.default('/auth'),
  VITE_API_URL: baseUrlSchema.default('/api'),
  VITE_PAYMENTS_URL: baseUrlSchema.default('/payments'),
  VITE_ANALYTICS_URL: baseUrlSchema.default('/analytics'),
  VITE_ASSETS_URL: baseUrlSchema.default('/assets'),
  VITE_GRAPHQL_URL: baseUrlSchema.default('/graphql'),
  VITE_REST_URL: baseUrlSchema.default('/rest'),
  VITE_IDENTITY_URL: baseUrlSchema.default('/identity'),
});

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

/** Thrown at start when a variable is wrong; the message lists every problem. */
export class EnvError extends Error {
  override name = 'EnvError';
}

/** Checks the variables once; an empty string counts as unset. */
export function parseEnv(source: Record<string, unknown>): ServiceUrls {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== '' && value !== undefined));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Invalid console configuration:\n${problems.join('\n')}`);
  }
  const v = result.data;
  return {
    auth: v.VITE_AUTH_URL,
    api: v.VITE_API_URL,
    payments: v.VITE_PAYMENTS_URL,
    analytics: v.VITE_ANALYTICS_URL,
    assets: v.VITE_ASSETS_URL,
    graphql: v.VITE_GRAPHQL_URL,
    rest: v.VITE_REST_URL,
    identity: v.VITE_IDENTITY_URL,
  };
}

/** The service base URLs, checked once when the console starts. */
export const env: ServiceUrls = parseEnv(import.meta.env);
