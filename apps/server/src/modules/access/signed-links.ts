import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Everything the server signs to be handed back later without a database row: a closed list, one key each. A
 * signature made for one purpose is refused by every other, even over the same fields, because each purpose has a key
 * of its own (docs/security.md "Signed links").
 * - `analytics-data`: the analytics data URLs of an Analytics page (organisation, session, expiry);
 * - `portfolio-download`: a student-portfolio download link (organisation, export, user, session, expiry);
 * - `sign-in-conflict`: the short-lived cookie that remembers a provider sign-in refused because the address is
 *   registered with other providers (the address, expiry);
 * - `lti-state`: the `state` of an LTI 1.3 login, handed to the learning platform and back with the launch (the
 *   platform, the nonce, the browser's state cookie, the login's hints, expiry);
 * - `lti-deep-link`: the deep linking picker's context, handed to the teacher's browser and back with the choice (the
 *   platform, deployment, return URL and data of a verified LtiDeepLinkingRequest, the teacher, expiry);
 * - `lti-registration`: an LTI Dynamic Registration address an admin pastes into a learning platform (the
 *   organisation, the admin, the address's id that makes it single use, expiry).
 */
/** @internal */
export const SIGNED_LINK_PURPOSES = ['analytics-data', 'portfolio-download', 'sign-in-conflict', 'lti-state', 'lti-deep-link', 'lti-registration'] as const;
export type SignedLinkPurpose = (typeof SIGNED_LINK_PURPOSES)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route is opened by a signed link of this purpose, which carries its own binding (the session that asked
     * for it): the identity module does not look up the request's session cookie, and request.actor stays null.
     */
    signedLink?: SignedLinkPurpose;
  }
}

/** The outcome of checking a signed link: the signature is checked first, so a forged link learns nothing else. */
export type LinkCheck = 'valid' | 'forged' | 'expired';

/** Signs and checks the fields of one purpose's links. */
export interface LinkSigner<P extends SignedLinkPurpose = SignedLinkPurpose> {
  readonly purpose: P;
  /** The signature (base64url) of the fields and the expiry (Unix seconds). */
  sign(fields: readonly string[], expires: number): string;
  /** Whether `signature` was made by `sign` for these fields and expiry, and the expiry has not passed at `now` (ms). */
  check(fields: readonly string[], expires: number, signature: string, now?: number): LinkCheck;
}

/** AUTH_SECRET's minimum length, as env.ts checks it. */
const MIN_SECRET_LENGTH = 32;
/** HKDF's salt: fixed, so every copy of the server sharing AUTH_SECRET derives the same keys (RFC 5869 §3.1). */
const SALT = 'quire signed links';

/**
 * The key of one purpose: HKDF-SHA256 (RFC 5869) of AUTH_SECRET with the purpose in `info`, 32 bytes. Changing
 * AUTH_SECRET changes every key; the keys never equal AUTH_SECRET itself, which the identity provider signs its
 * session cookie with.
 */
/** @internal */
export function signedLinkKey(authSecret: string, purpose: SignedLinkPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', authSecret, SALT, `quire signed link v1: ${purpose}`, 32));
}

/**
 * The signer of one purpose's links, keyed from AUTH_SECRET. There is no fallback key: without a secret of at least
 * 32 characters it throws, and so the server does not start (server.ts resolves AUTH_SECRET before building the app).
 */
export function linkSigner<P extends SignedLinkPurpose>(authSecret: string | undefined, purpose: P): LinkSigner<P> {
  if (!authSecret || authSecret.length < MIN_SECRET_LENGTH) {
    throw new Error(`AUTH_SECRET is not set (at least ${MIN_SECRET_LENGTH} characters): signed links (${purpose}) need it`);
  }
  const key = signedLinkKey(authSecret, purpose);
  // JSON of the list: the fields can never run into each other, whatever characters they hold.
  const mac = (fields: readonly string[], expires: number) => createHmac('sha256', key).update(JSON.stringify([...fields, expires])).digest();
  return {
    purpose,
    sign: (fields, expires) => mac(fields, expires).toString('base64url'),
    check(fields, expires, signature, now = Date.now()) {
      if (!Number.isSafeInteger(expires)) return 'forged';
      const wanted = mac(fields, expires);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'forged';
      return expires * 1000 <= now ? 'expired' : 'valid';
    },
  };
}
