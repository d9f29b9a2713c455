import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
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

/** The only algorithm our ID tokens are signed with (auth.ts: the jwt plugin's Ed25519 key pair). */
const ALGORITHMS = ['EdDSA'];

/**
 * Verifies an ID token against a key set with `jose`: an EdDSA signature by a key of the set (by `kid`), issuer and
 * audience `issuer`, not expired (`exp` required). Returns its claims, or null for any token that fails a check,
 * including another algorithm (`none`, HS256) or one that cannot be read.
 */
/** @internal */
export async function verifyIdTokenWith(keys: JSONWebKeySet, token: string, issuer: string, now = new Date()): Promise<IdTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys), {
      algorithms: ALGORITHMS,
      issuer,
      audience: issuer,
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: now,
    });
    return payload as unknown as IdTokenClaims;
  } catch {
    // Whatever jose refuses (errors.JOSEError) or cannot read, the token proves nothing: the caller answers 401.
    return null;
  }
}

/** Verifies an ID token issued by GET /identity/token against our own key set (GET /identity/jwks). */
export async function verifyIdToken(auth: Auth, token: string, issuer: string): Promise<IdTokenClaims | null> {
  return verifyIdTokenWith((await auth.api.getJwks()) as JSONWebKeySet, token, issuer);
}
