import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * OAuth 1.0a signatures as LTI 1.1 uses them (RFC 5849 §3.4): HMAC-SHA1 or HMAC-SHA256 over the
 * signature base string of the method, the URL and every body and query parameter but oauth_signature.
 * Written for the launch endpoint; tests sign with an independent consumer library (oauth-1.0a).
 */

export type SignatureMethod = 'HMAC-SHA1' | 'HMAC-SHA256';
export const SIGNATURE_METHODS: readonly SignatureMethod[] = ['HMAC-SHA1', 'HMAC-SHA256'];

/** RFC 3986 percent-encoding (RFC 5849 §3.6): unreserved characters stay, everything else is %XX. @internal */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The base string URI (RFC 5849 §3.4.1.2): lower-case scheme and host, default port left out, no query. @internal */
export function baseStringUri(url: string): string {
  const u = new URL(url);
  const defaultPort = (u.protocol === 'http:' && u.port === '80') || (u.protocol === 'https:' && u.port === '443') || u.port === '';
  return `${u.protocol}//${u.hostname.toLowerCase()}${defaultPort ? '' : `:${u.port}`}${u.pathname}`;
}

/** The signature base string over the given parameter pairs (oauth_signature is left out here). */
function signatureBaseString(method: string, url: string, params: ReadonlyArray<readonly [string, string]>): string {
  const normalised = params
    .filter(([name]) => name !== 'oauth_signature')
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(baseStringUri(url)), percentEncode(normalised)].join('&');
}

function sign(signatureMethod: SignatureMethod, baseString: string, consumerSecret: string, tokenSecret = ''): Buffer {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac(signatureMethod === 'HMAC-SHA1' ? 'sha1' : 'sha256', key).update(baseString).digest();
}

/**
 * True when `signature` (base64) is the signature of the request for one of the candidate URLs
 * (the public launch URL, and the URL the request reached). Compared in constant time.
 */
export function verifySignature(input: {
  method: string;
  urls: readonly string[];
  params: ReadonlyArray<readonly [string, string]>;
  signatureMethod: SignatureMethod;
  signature: string;
  consumerSecret: string;
}): boolean {
  const given = Buffer.from(input.signature, 'base64');
  let ok = false;
  for (const url of new Set(input.urls)) {
    const expected = sign(input.signatureMethod, signatureBaseString(input.method, url, input.params), input.consumerSecret);
    // The HMAC's length is public; its bytes are compared in constant time, for every candidate URL.
    const same = given.length === expected.length && timingSafeEqual(given, expected);
    ok = same || ok;
  }
  return ok;
}
