import type { FastifyInstance, FastifyRequest } from 'fastify';
import cors from '@fastify/cors';
import type { Env } from '../../env.js';

/**
 * The product's own apps (APP_URL, PRODUCT_APP_ORIGINS) live on other origins than the console. After a launch or a
 * library visit they hold a single-use sign-in token: they exchange it for a session and read which apps the user
 * may use. Those calls, and only those, accept the apps' origins (the Origin check) and answer them with CORS that
 * names the origin and allows credentials. Every other route stays the console's alone.
 */

/** The calls a product app makes, by method and path (`*` is one path segment). */
const APP_CALLS: ReadonlyArray<{ method: 'GET' | 'POST'; path: RegExp }> = [
  { method: 'POST', path: /^\/identity\/one-time-token\/verify$/ },
  { method: 'GET', path: /^\/identity\/get-session$/ },
  { method: 'POST', path: /^\/identity\/sign-out$/ },
  { method: 'GET', path: /^\/api\/organisations\/[^/]+\/users\/[^/]+\/apps$/ },
];

/** APP_URL's origin and PRODUCT_APP_ORIGINS (env.ts checked they are origins). */
export function productAppOrigins(env: Pick<Env, 'APP_URL' | 'PRODUCT_APP_ORIGINS'>): Set<string> {
  const extra = env.PRODUCT_APP_ORIGINS.split(',').map((s) => s.trim().replace(/\/$/, '')).filter(Boolean);
  return new Set([new URL(env.APP_URL).origin, ...extra]);
}

function isAppCall(method: string, url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return APP_CALLS.some((call) => call.method === method && call.path.test(path));
}

/** True when the request is one of the app calls and its Origin is one of the product's apps. */
export function isProductAppCall(request: FastifyRequest, origins: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origins.has(origin) && isAppCall(request.method, request.url);
}

/** CORS for the app calls: the preflight and the answer name the app's origin, with credentials; nothing for others. */
export async function registerProductAppCors(app: FastifyInstance, origins: ReadonlySet<string>): Promise<void> {
  await app.register(cors, {
    delegator: (request, callback) => {
      const origin = request.headers.origin;
      const preflightMethod = request.headers['access-control-request-method'];
      const method = request.method === 'OPTIONS' && typeof preflightMethod === 'string' ? preflightMethod.toUpperCase() : request.method;
      const allowed = typeof origin === 'string' && origins.has(origin) && isAppCall(method, request.url);
      callback(
        null,
        allowed
          ? { origin, credentials: true, methods: ['GET', 'POST'], allowedHeaders: ['content-type'], maxAge: 600, strictPreflight: false }
          : { origin: false, strictPreflight: false },
      );
    },
  });
}
