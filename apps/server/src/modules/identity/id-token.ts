import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import type { Auth } from './auth.js';

/** Claims of Quire's ID token (docs/identity.md). */
export interface IdTokenClaims {
  sub: string;
  iss: string;
  aud: string | string[];
  exp: number;
  iat: number;
  email: string;
  name: string;
  email_verified: boolean;
  bc_orgs: Record<string, 'admin' | 'library-manager'>;
}

function decodePart<T>(part: string): T | null {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString()) as T;
  } catch {
    return null;
  }
}

/**
 * Verifies an ID token issued by GET /identity/token: EdDSA signature against our JWKS, issuer,
 * audience and expiry. Returns its claims, or null for anything else.
 */
export async function verifyIdToken(auth: Auth, token: string, issuer: string): Promise<IdTokenClaims | null> {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodePart<{ alg?: string; kid?: string }>(headerPart);
  const claims = decodePart<IdTokenClaims>(payloadPart);
  if (!header || !claims || header.alg !== 'EdDSA' || !header.kid) return null;
  const { keys } = (await auth.api.getJwks()) as { keys: Array<JsonWebKey & { kid?: string }> };
  const jwk = keys.find((k) => k.kid === header.kid);
  if (!jwk) return null;
  const { kid: _kid, alg: _alg, ...keyMaterial } = jwk as JsonWebKey & { kid?: string; alg?: string };
  const key = createPublicKey({ key: keyMaterial, format: 'jwk' });
  const valid = verify(null, Buffer.from(`${headerPart}.${payloadPart}`), key, Buffer.from(signaturePart, 'base64url'));
  if (!valid) return null;
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss !== issuer || !audiences.includes(issuer)) return null;
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return null;
  return claims;
}
