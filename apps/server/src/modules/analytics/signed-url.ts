import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Env } from '../../env.js';
import { appError } from '../../errors.js';

/**
 * Signed analytics URLs (DESIGN "Signed URLs"): every data URL of an analytics session carries `session` (the id of
 * the sign-in session that asked for it), `expires` (Unix seconds) and `signature`, an HMAC-SHA256 over the
 * organisation id, the session and the expiry. A request whose organisation, session, expiry or signature was
 * changed, or whose expiry has passed, gets 403. Whether the session still lives is link-session.ts' check.
 */
export interface UrlSigner {
  /** The signed query text for one organisation and session, valid for `ttlSeconds` from `now`. */
  sign(organisationId: string, sessionId: string, now?: number): { query: string; expires: number };
  /** Throws 403 unless the query was signed for this organisation and has not expired; returns its session id. */
  verify(organisationId: string, query: { session?: string; expires?: string; signature?: string }, now?: number): string;
  readonly ttlSeconds: number;
}

/** The signing key: ANALYTICS_URL_SECRET, else derived from AUTH_SECRET, else random for this process. */
export function analyticsUrlKey(env: Env): Buffer {
  if (env.ANALYTICS_URL_SECRET) return Buffer.from(env.ANALYTICS_URL_SECRET, 'utf8');
  if (env.AUTH_SECRET) return createHmac('sha256', env.AUTH_SECRET).update('quire:analytics-urls:v1').digest();
  return randomBytes(32);
}

export function createUrlSigner(key: Buffer, ttlSeconds: number, verifiedKept = 10_000): UrlSigner {
  const mac = (organisationId: string, sessionId: string, expires: number) =>
    createHmac('sha256', key).update(`analytics:v2\n${organisationId}\n${sessionId}\n${expires}`).digest();
  /**
   * Links already verified, by their exact organisation, expiry and signature text: a dashboard sends the same few
   * links again and again until they expire, and the HMAC was a tenth of a kept answer's CPU (docs/performance-log.md).
   * Only a link whose signature matched is kept, so a changed one always meets the HMAC; the expiry is checked on
   * every request, kept or not.
   */
  const verified = new LRUCache<string, true>({ max: verifiedKept });

  return {
    ttlSeconds,
    sign(organisationId, sessionId, now = Date.now()) {
      const expires = Math.floor(now / 1000) + ttlSeconds;
      const signature = mac(organisationId, sessionId, expires).toString('base64url');
      return { query: `session=${encodeURIComponent(sessionId)}&expires=${expires}&signature=${signature}`, expires };
    },
    verify(organisationId, query, now = Date.now()) {
      if (!query.expires || !query.signature) throw appError('signed_url_missing');
      if (!/^\d{1,12}$/.test(query.expires)) throw appError('signed_url_invalid');
      const expires = Number(query.expires);
      const sessionId = query.session ?? '';
      const link = `${organisationId}\n${sessionId}\n${query.expires}\n${query.signature}`;
      if (!verified.has(link)) {
        const given = Buffer.from(query.signature, 'base64url');
        const wanted = mac(organisationId, sessionId, expires);
        if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
          throw appError('signed_url_invalid');
        }
        verified.set(link, true);
      }
      if (expires * 1000 <= now) throw appError('signed_url_expired');
      return sessionId;
    },
  };
}
