import { randomBytes } from 'node:crypto';
import { CUSTOM_TOKEN_MINUTES, type Auth } from './auth.js';
import { hashToken } from './tokens.js';

export interface ClientMeta {
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * A custom token: random, single use, CUSTOM_TOKEN_MINUTES long, stored hashed. It names a session
 * created now, so every sign-in gets a new session id; `POST /identity/one-time-token/verify`
 * turns it into the `__admin_session` cookie.
 */
export async function issueCustomTokenForUser(auth: Auth, userId: string, client: ClientMeta): Promise<string> {
  const context = await auth.$context;
  const session = await context.internalAdapter.createSession(userId, false, {
    ipAddress: client.ipAddress ?? '',
    userAgent: client.userAgent ?? '',
  });
  return issueCustomTokenForSession(auth, session.token);
}

/** A custom token naming an existing session (restoring the identity sign-in from the cookie). */
export async function issueCustomTokenForSession(auth: Auth, sessionToken: string): Promise<string> {
  const context = await auth.$context;
  const token = randomBytes(32).toString('base64url');
  await context.internalAdapter.createVerificationValue({
    identifier: `one-time-token:${hashToken(token)}`,
    value: sessionToken,
    expiresAt: new Date(Date.now() + CUSTOM_TOKEN_MINUTES * 60_000),
  });
  return token;
}
