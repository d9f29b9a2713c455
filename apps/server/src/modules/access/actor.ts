import type { FastifyRequest } from 'fastify';
import { unauthorised } from '../../errors.js';

/** The signed-in person making a request, resolved from the `__admin_session` cookie by the identity module. */
export interface Actor {
  userId: string;
  email: string;
  displayName: string;
  emailVerified: boolean;
}

/**
 * Header every console request carries with the acting user's id (spec §6). The server compares it
 * with the session; a mismatch is refused, so a tab left open by another user cannot act for them.
 */
export const ACTING_USER_HEADER = 'x-acting-user';

declare module 'fastify' {
  interface FastifyRequest {
    /** null when the request has no valid session. Set by the identity module's onRequest hook. */
    actor: Actor | null;
  }
}

/** The actor, or a 401 when the request is not signed in. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorised();
  return request.actor;
}
