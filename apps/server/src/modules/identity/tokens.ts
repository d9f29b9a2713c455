import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a token (base64url): tokens are stored hashed, so a database leak yields no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A value signed with the secret and expiring at `expiresAt`: `payload.expiry.signature` (base64url). */
export function signValue(secret: string, value: string, expiresAt: Date): string {
  const body = `${Buffer.from(value).toString('base64url')}.${Math.floor(expiresAt.getTime() / 1000)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** The value of a `signValue` string, or null when forged or expired. */
export function verifySignedValue(secret: string, signed: string): string | null {
  const parts = signed.split('.');
  if (parts.length !== 3) return null;
  const [value, expiry, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', secret).update(`${value}.${expiry}`).digest();
  const actual = Buffer.from(signature, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  if (Number(expiry) * 1000 < Date.now()) return null;
  return Buffer.from(value, 'base64url').toString();
}
