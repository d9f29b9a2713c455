import type { FastifyRequest } from 'fastify';
import { publicUrl, type Env } from '../../env.js';

/**
 * Origins allowed to send state-changing requests: PUBLIC_URL's and TRUSTED_ORIGINS. Nothing else is
 * trusted in any mode; the Vite development server keeps the browser's Host (changeOrigin: false), so
 * its requests are same-origin (isSameOrigin) without a special case.
 */
export function trustedOrigins(env: Env): string[] {
  const extra = env.TRUSTED_ORIGINS.split(',').map((s) => s.trim().replace(/\/$/, '')).filter(Boolean);
  return [...new Set([new URL(publicUrl(env)).origin, ...extra])];
}

/**
 * A request whose Origin names the host it was sent to (Host header, port included) is same-origin:
 * the console opened at http://127.0.0.1:3000 or a LAN address instead of PUBLIC_URL. A cross-site page
 * cannot make the browser send its Origin with our Host.
 */
export function isSameOrigin(request: FastifyRequest, origin: string): boolean {
  const host = request.headers.host;
  if (!host) return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.origin !== origin) return false;
  return parsed.host === host.toLowerCase();
}
