import type { FastifyRequest } from 'fastify';
import { appError, unauthorised, type AppError } from '../../errors.js';

/** The signed-in person making a request, resolved from the `__admin_session` cookie by the identity module. */
export interface Actor {
  userId: string;
  email: string;
  displayName: string;
  emailVerified: boolean;
  /** The session's id (never its token): what a signed link is tied to (liveSessionAccessLevel). */
  sessionId?: string;
  /**
   * Where the request came from, for the audit log: request.ip (X-Forwarded-For believed only through TRUST_PROXY)
   * and the User-Agent. Set by the identity module with the actor.
   */
  client?: ClientInfo;
  /** The person's address is in the provider's e-mail domain (PROVIDER_EMAIL_DOMAIN): provider staff. */
  providerStaff?: boolean;
  /**
   * 2-step verification (access/session-user.ts): 'second-step' while the session waits for its second step,
   * 'enrol' while the person must turn it on first. The identity module's hook refuses every other route then, and
   * leaves request.actor null for a session waiting for its second step.
   */
  twoStep?: 'second-step' | 'enrol' | null;
}

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** The client of a request as the audit log keeps it (the user agent cut to 512 characters). */
export function clientOf(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, 512) : null };
}

/**
 * A request whose session is read in the same statement as its answer (a route with `config.sessionInStatement`, the
 * Teachers page: docs/performance-log.md): the token of its signed session cookie, whose signature the identity module
 * has checked, and the user its X-Acting-User header names. The statement reads the session by the token (not
 * expired, with its user) and answers with the user's id; `checkSessionActor` then refuses as the actor hook would.
 */
export interface SessionRef {
  token: string;
  actingUser: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** null when the request has no valid session. Set by the identity module's onRequest hook. */
    actor: Actor | null;
    /** Routes with `config.sessionInStatement` only (request.actor stays null there): null without a signed cookie. */
    sessionRef: SessionRef | null;
    /** A live session still waiting for its second step (request.actor is null then): who it belongs to. */
    pendingActor: Actor | null;
  }
  interface FastifyContextConfig {
    /** true: the route reads the session in its own statement (request.sessionRef) instead of before it runs. */
    sessionInStatement?: boolean;
  }
}

/** A request whose X-Acting-User names someone else than the session's user (a tab left open by another user). */
export function actingUserMismatch(): AppError {
  return appError('acting_user_mismatch');
}

/** The session reference of a `sessionInStatement` route, or a 401 when the request has no signed session cookie. */
export function requireSessionRef(request: FastifyRequest): SessionRef {
  if (!request.sessionRef) throw unauthorised();
  return request.sessionRef;
}

/** After the statement: 401 when the token named no live session, or when X-Acting-User names someone else. */
export function checkSessionActor(ref: SessionRef, actorId: string | null): void {
  if (!actorId) throw unauthorised();
  if (ref.actingUser && ref.actingUser !== actorId) throw actingUserMismatch();
}

/** The person of a session, whether or not it has passed its second step (the second step's own routes). */
export function requireSessionPerson(request: FastifyRequest): Actor {
  const person = request.actor ?? request.pendingActor;
  if (!person) throw unauthorised();
  return person;
}

/** The actor, or a 401 when the request is not signed in. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorised();
  return request.actor;
}
