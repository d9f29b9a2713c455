import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseCookies } from 'better-auth/cookies';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Actor } from '../access/actor.js';
import { liveSessionUser } from '../access/session-user.js';
import { SESSION_COOKIE_NAME } from '@quire/core';

/**
 * The session token of a signed `__admin_session` value, or null when the signature is not the server's.
 * Better Auth signs the cookie as `token.signature` (HMAC-SHA256 of the token with AUTH_SECRET, base64, 44
 * characters) and checks it the same way before it reads the session: a forged or altered cookie is refused
 * here without a database round trip.
 * @internal
 */
export function verifySessionCookie(value: string, secret: string): string | null {
  if (!secret) return null;
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith('=')) return null;
  const expected = createHmac('sha256', secret).update(token, 'utf8').digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** The session token of a Cookie header's signed `__admin_session`, or null (none, or not signed by this server). */
export function sessionTokenOf(cookieHeader: string, secret: string): string | null {
  const value = parseCookies(cookieHeader).get(SESSION_COOKIE_NAME);
  return value ? verifySessionCookie(value, secret) : null;
}

/**
 * The signed-in person of a session token whose signature was checked, as Better Auth's getSession (with
 * disableRefresh) finds them, in ONE statement: the live session by its token, with its user (access/session-user.ts,
 * the rule the Teachers page's own statement uses too). Every request reads it, so this skips the SDK's endpoint
 * machinery; signing in, refreshing (GET /identity/token) and signing out stay the SDK's. The session is still checked
 * in the database on every request: a session ended by sign-out or a password reset opens nothing from that moment
 * (Better Auth's cookie cache would trust a copied cookie until the cache expires, so it stays off: docs/identity.md).
 */
export async function findActorBySessionToken(db: Kysely<DB>, token: string): Promise<Actor | null> {
  const row = await liveSessionUser(db, token).executeTakeFirst();
  return row
    ? { userId: row.id, email: row.email, displayName: row.name, emailVerified: row.emailVerified, sessionId: row.sessionId, twoStep: row.twoStep ?? null }
    : null;
}
