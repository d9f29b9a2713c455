import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Env } from '../../env.js';
import { forbidden } from '../../errors.js';

/**
 * Signed analytics URLs (DESIGN "Signed URLs"): every data URL of an analytics session carries
 * `expires` (Unix seconds) and `signature`, an HMAC-SHA256 over the organisation id and the expiry.
 * A request whose organisation, expiry or signature was changed, or whose expiry has passed, gets 403.
 */
export interface UrlSigner {
  /** The signed query text for one organisation, valid for `ttlSeconds` from `now`. */
  sign(organisationId: string, now?: number): { query: string; expires: number };
  /** Throws 403 unless the query was signed for this organisation and has not expired. */
  verify(organisationId: string, query: { expires?: string; signature?: string }, now?: number): void;
  readonly ttlSeconds: number;
}

/** The signing key: ANALYTICS_URL_SECRET, else derived from AUTH_SECRET, else random for this process. */
export function analyticsUrlKey(env: Env): Buffer {
  if (env.ANALYTICS_URL_SECRET) return Buffer.from(env.ANALYTICS_URL_SECRET, 'utf8');
  if (env.AUTH_SECRET) return createHmac('sha256', env.AUTH_SECRET).update('quire:analytics-urls:v1').digest();
  return randomBytes(32);
}

export function createUrlSigner(key: Buffer, ttlSeconds: number): UrlSigner {
  const mac = (organisationId: string, expires: number) =>
    createHmac('sha256', key).update(`analytics:v1\n${organisationId}\n${expires}`).digest();

  return {
    ttlSeconds,
    sign(organisationId, now = Date.now()) {
      const expires = Math.floor(now / 1000) + ttlSeconds;
      const signature = mac(organisationId, expires).toString('base64url');
      return { query: `expires=${expires}&signature=${signature}`, expires };
    },
    verify(organisationId, query, now = Date.now()) {
      if (!query.expires || !query.signature) throw forbidden('This analytics link is not signed', 'signed_url_missing');
      if (!/^\d{1,12}$/.test(query.expires)) throw forbidden('This analytics link is not valid', 'signed_url_invalid');
      const expires = Number(query.expires);
      const given = Buffer.from(query.signature, 'base64url');
      const wanted = mac(organisationId, expires);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
        throw forbidden('This analytics link is not valid', 'signed_url_invalid');
      }
      if (expires * 1000 <= now) throw forbidden('This analytics link has expired', 'signed_url_expired');
    },
  };
}
