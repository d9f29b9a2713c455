import { LRUCache } from 'lru-cache';
import { appError } from '../../errors.js';
import type { LinkSigner } from '../access/signed-links.js';

/**
 * Signed analytics URLs (DESIGN "Signed URLs"): every data URL of an analytics session carries `session` (the id of
 * the sign-in session that asked for it), `expires` (Unix seconds) and `signature`, the `analytics-data` link
 * signature (access/signed-links.ts) of the organisation id, the session and the expiry. A request whose
 * organisation, session, expiry or signature was changed, or whose expiry has passed, gets 403. Whether the session still lives is link-session.ts' check.
 */
export interface UrlSigner {
  /** The signed query text for one organisation and session, valid for `ttlSeconds` from `now`. */
  sign(organisationId: string, sessionId: string, now?: number): { query: string; expires: number };
  /** Throws 403 unless the query was signed for this organisation and has not expired; returns its session id. */
  verify(organisationId: string, query: { session?: string; expires?: string; signature?: string }, now?: number): string;
  readonly ttlSeconds: number;
}

/**
 * The analytics data URLs' signer over the one link signer of the `analytics-data` purpose (access/signed-links.ts),
 * binding the organisation, the session and the expiry.
 */
export function createUrlSigner(links: LinkSigner<'analytics-data'>, ttlSeconds: number, verifiedKept = 10_000): UrlSigner {
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
      const signature = links.sign([organisationId, sessionId], expires);
      return { query: `session=${encodeURIComponent(sessionId)}&expires=${expires}&signature=${signature}`, expires };
    },
    verify(organisationId, query, now = Date.now()) {
      if (!query.expires || !query.signature) throw appError('signed_url_missing');
      if (!/^\d{1,12}$/.test(query.expires)) throw appError('signed_url_invalid');
      const expires = Number(query.expires);
      const sessionId = query.session ?? '';
      const link = `${organisationId}\n${sessionId}\n${query.expires}\n${query.signature}`;
      if (!verified.has(link)) {
        if (links.check([organisationId, sessionId], expires, query.signature, now) === 'forged') throw appError('signed_url_invalid');
        verified.set(link, true);
      }
      if (expires * 1000 <= now) throw appError('signed_url_expired');
      return sessionId;
    },
  };
}
