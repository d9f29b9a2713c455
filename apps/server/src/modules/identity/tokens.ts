import { createHash } from 'node:crypto';
import type { LinkSigner } from '../access/signed-links.js';

/** SHA-256 of a token (base64url): tokens are stored hashed, so a database leak yields no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * A value handed to the browser and read back later (the sign-in conflict cookie), signed with the link signer of
 * its purpose and expiring at `expiresAt`: `payload.expiry.signature` (base64url).
 */
export function signValue(links: LinkSigner<'sign-in-conflict'>, value: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${Buffer.from(value).toString('base64url')}.${expires}.${links.sign([value], expires)}`;
}

/** The value of a `signValue` string, or null when forged or expired. */
export function verifySignedValue(links: LinkSigner<'sign-in-conflict'>, signed: string, now = Date.now()): string | null {
  const parts = signed.split('.');
  if (parts.length !== 3) return null;
  const [payload, expiry, signature] = parts as [string, string, string];
  if (!/^\d{1,12}$/.test(expiry)) return null;
  const value = Buffer.from(payload, 'base64url').toString();
  return links.check([value], Number(expiry), signature, now) === 'valid' ? value : null;
}
