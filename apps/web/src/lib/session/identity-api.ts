import { identitySessionSchema, type AdminSession, type CustomToken, type IdentitySession, type PasskeyOptions } from '@quire/core';
import { apiRequest, isApiError, lazyContract, serviceUrl } from '../api/index.js';

// Loaded with the first call, not in the first download (lib/api/contract.ts). The session's schema is zod/mini, in
// the first download: every page parses it before it shows anything.
const adminSessionSchema = lazyContract((c) => c.adminSessionSchema);
const customTokenSchema = lazyContract((c) => c.customTokenSchema);
const passkeyOptionsSchema = lazyContract((c) => c.passkeyOptionsSchema);
const idTokenSchema = lazyContract((c) => c.idTokenSchema);
const oauthStartSchema = lazyContract((c) => c.oauthStartSchema);
const signOutSchema = lazyContract((c) => c.signOutSchema);
import type { SessionIdentity } from './session-backend.js';

/** The raw calls of the identity contract (docs/identity.md); the backend composes them into flows. */

type SessionAnswer = IdentitySession;

function toIdentity(answer: SessionAnswer): SessionIdentity | null {
  if (!answer) return null;
  const { user } = answer;
  return {
    user: { uid: user.id, email: user.email, displayName: user.name ?? '', photoURL: user.image ?? null },
    emailVerified: user.emailVerified,
    twoStep: answer.twoStep ?? null,
  };
}

/** GET {identity}/get-session: the signed-in identity, or null. */
export async function fetchSession(): Promise<SessionIdentity | null> {
  return toIdentity(await apiRequest(serviceUrl('identity', '/get-session'), { schema: identitySessionSchema }));
}

/** POST {auth}/email: e-mail sign-in (or sign-up with displayName), answering a custom token. */
export function postAuthEmail(form: {
  email: string;
  password: string;
  displayName?: string;
  registrationAttempt?: boolean;
}): Promise<CustomToken> {
  return apiRequest(serviceUrl('auth', '/email'), {
    method: 'POST',
    form: { ...form, isTeacher: true },
    schema: customTokenSchema,
  });
}

/** POST {auth}/passkey/options: a challenge for signing in with any passkey of this site. */
export function fetchPasskeySignInOptions(): Promise<PasskeyOptions> {
  return apiRequest(serviceUrl('auth', '/passkey/options'), { method: 'POST', schema: passkeyOptionsSchema });
}

/** POST {auth}/passkey: the signed challenge, answering a custom token (as POST {auth}/email does). */
export function postAuthPasskey(response: unknown): Promise<CustomToken> {
  return apiRequest(serviceUrl('auth', '/passkey'), { method: 'POST', json: { response }, schema: customTokenSchema });
}

/** POST {identity}/one-time-token/verify: turns a custom token into a session (sets __admin_session). */
export async function signInWithCustomToken(token: string): Promise<SessionIdentity> {
  const identity = toIdentity(
    await apiRequest(serviceUrl('identity', '/one-time-token/verify'), { method: 'POST', json: { token }, schema: identitySessionSchema }),
  );
  if (!identity) throw new Error('custom token sign-in answered no user');
  return identity;
}

/** GET {identity}/token: a fresh ID token (carrying bc_orgs); null when the session is over (401). */
export async function fetchIdToken(): Promise<string | null> {
  try {
    return (await apiRequest(serviceUrl('identity', '/token'), { schema: idTokenSchema })).token;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

/** POST {api}/token: opens the admin session for the ID token (spec §7 "POST {api}{token}"). */
export function openAdminSession(idToken: string): Promise<AdminSession> {
  return apiRequest(serviceUrl('api', '/token'), {
    method: 'POST',
    json: { token: idToken, userProperties: { isTeacher: true, needsLibraryOnboarding: false } },
    schema: adminSessionSchema,
  });
}

/**
 * The provider's authorisation URL for a pop-up. docs/identity.md names POST {identity}/sign-in/oauth2
 * with `providerId`; the identity library the server runs serves its OpenID Connect providers at
 * POST {identity}/sign-in/social with `provider` (same answer), which is what is called here.
 */
export async function startOAuthSignIn(
  providerId: 'google' | 'office365',
  callbackURL: string,
  errorCallbackURL: string,
): Promise<string> {
  const answer = await apiRequest(serviceUrl('identity', '/sign-in/social'), {
    method: 'POST',
    json: { provider: providerId, callbackURL, errorCallbackURL, disableRedirect: true },
    schema: oauthStartSchema,
  });
  return answer.url;
}

/** POST {api}/v2/access-log/re-auth with keepalive, after each token refresh; failures are not the user's concern. */
export function postReauth(): void {
  void apiRequest(serviceUrl('api', '/v2/access-log/re-auth'), { method: 'POST', keepalive: true, responseType: 'none' }).catch(
    () => undefined,
  );
}

/** POST {identity}/sign-out: ends the server session and clears the cookie. */
export async function postSignOut(): Promise<void> {
  await apiRequest(serviceUrl('identity', '/sign-out'), { method: 'POST', json: {}, schema: signOutSchema });
}
