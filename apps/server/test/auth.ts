import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { publicUrl } from '../src/env.js';
import { SESSION_COOKIE_NAME } from '@quire/core';
import { issueCustomTokenForUser } from '../src/modules/identity/custom-token.js';
import { findUserByEmail, markEmailVerified } from '../src/modules/identity/identity.repository.js';
import { hashPassword } from '../src/modules/identity/password.js';

/** Headers a signed-in console request carries: the session cookie, the acting user, a trusted Origin. */
export interface SignedInHeaders {
  cookie: string;
  'x-acting-user': string;
  origin: string;
  [name: string]: string;
}

export interface SignInOptions {
  email: string;
  /** Sets (or adds) an e-mail-and-password account with this password. */
  password?: string;
  /** Display name when the user is created. */
  name?: string;
  /** Default true; false leaves a new user's e-mail unverified. */
  verified?: boolean;
}

/** The Origin every state-changing test request needs (CSRF check). */
export function consoleOrigin(app: FastifyInstance): string {
  return new URL(publicUrl(app.env)).origin;
}

/** The `name=value` of the session cookie in a response's Set-Cookie headers, or undefined. */
export function sessionCookieFrom(setCookie: string | string[] | undefined): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = all.find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
  const pair = line?.split(';')[0];
  return pair && pair !== `${SESSION_COOKIE_NAME}=` ? pair : undefined;
}

/**
 * Signs a user in for an integration test and returns real session headers:
 * `app.inject({ method: 'POST', url, headers: (await signIn(app, { email })).headers, payload })`.
 * Creates the user (verified unless `verified: false`) when the e-mail is new. No rate limit applies.
 */
export async function signIn(app: FastifyInstance, options: SignInOptions): Promise<{ userId: string; headers: SignedInHeaders }> {
  const email = options.email.trim().toLowerCase();
  let user = await findUserByEmail(app.db, email);
  if (!user) {
    const id = randomUUID();
    await app.db
      .insertInto('user')
      .values({ id, email, name: options.name ?? email.split('@')[0] ?? email, emailVerified: options.verified !== false, createdAt: new Date(), updatedAt: new Date() })
      .execute();
    user = await findUserByEmail(app.db, email);
    if (!user) throw new Error('signIn: the user was not created');
  } else if (options.verified !== false && !user.emailVerified) {
    await markEmailVerified(app.db, user.id);
  }
  if (options.password) {
    const hash = await hashPassword(options.password);
    const updated = await app.db
      .updateTable('account')
      .set({ password: hash, updatedAt: new Date() })
      .where('userId', '=', user.id)
      .where('providerId', '=', 'credential')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await app.db
        .insertInto('account')
        .values({ id: randomUUID(), accountId: user.id, providerId: 'credential', userId: user.id, password: hash, createdAt: new Date(), updatedAt: new Date() })
        .execute();
    }
  }
  const token = await issueCustomTokenForUser(app.auth, user.id, { ipAddress: '127.0.0.1', userAgent: 'quire-tests' });
  const origin = consoleOrigin(app);
  const response = await app.inject({ method: 'POST', url: '/identity/one-time-token/verify', headers: { origin }, payload: { token } });
  const cookie = sessionCookieFrom(response.headers['set-cookie']);
  if (response.statusCode !== 200 || !cookie) {
    throw new Error(`signIn: custom-token sign-in failed (${response.statusCode}: ${response.body})`);
  }
  return { userId: user.id, headers: { cookie, 'x-acting-user': user.id, origin } };
}
