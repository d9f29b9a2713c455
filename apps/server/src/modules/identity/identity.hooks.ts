import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { appError } from '../../errors.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { ACTING_USER_HEADER, isProviderStaffEmail } from '@quire/core';
import { actingUserMismatch, clientOf } from '../access/actor.js';
import { SESSION_COOKIE_NAME } from '@quire/core';
import { findActorBySessionToken, sessionTokenOf } from './session-actor.js';
import { isSameOrigin } from './origins.js';
import { isProductAppCall } from './app-origins.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route accepts state-changing requests from any origin (e.g. an LTI launch). */
    csrf?: boolean;
  }
}

/** Methods that change nothing; every other method is state-changing and needs a trusted Origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Where a user signs in: the acting-user header may still name the previous user there. */
const SIGN_IN_PREFIXES = ['/identity/', '/auth/', '/payments/v1/admin/auth'];

/** The services whose refusal names the 2-step state (the console reads the code and sends the person on). */
const DATA_PREFIXES = ['/api/', '/graphql', '/identity/', '/payments/', '/analytics/', '/rest/'];
/** What a session waiting for its second step may reach: who it is, signing out, signing in again, the second step. */
const OPEN_DURING_SECOND_STEP = ['/identity/get-session', '/identity/sign-out', '/identity/one-time-token/verify', '/identity/sign-in/', '/api/two-step/verify'];
/** What a person who must turn 2-step verification on may reach besides: the ID token (no data) and the Security page's calls. */
const OPEN_DURING_ENROLMENT = [...OPEN_DURING_SECOND_STEP, '/identity/token', '/api/token', '/api/v2/access-log/re-auth', '/api/two-step'];

const isDataPath = (path: string) => DATA_PREFIXES.some((prefix) => path.startsWith(prefix));

/**
 * True when a session in this 2-step state may reach the path (docs/identity.md "2-step verification"). Elsewhere
 * request.actor stays null, so a route of another prefix that needs a session answers 401.
 */
function openWhileTwoStep(path: string, state: 'second-step' | 'enrol'): boolean {
  const open = state === 'second-step' ? OPEN_DURING_SECOND_STEP : OPEN_DURING_ENROLMENT;
  return open.some((prefix) => path === prefix || (prefix.endsWith('/') ? path.startsWith(prefix) : path.startsWith(`${prefix}/`)));
}

/** Node's headers as a fetch Headers object (what Better Auth reads). */
export function toFetchHeaders(headers: IncomingHttpHeaders): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) result.append(name, v);
  }
  return result;
}

export function hasSessionCookie(request: FastifyRequest): boolean {
  return (request.headers.cookie ?? '').includes(`${SESSION_COOKIE_NAME}=`);
}

/** True when the request's Origin is trusted (configured, or the request's own host). */
function isTrustedOrigin(request: FastifyRequest, allowed: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  return typeof origin === 'string' && (allowed.has(origin) || isSameOrigin(request, origin));
}

/**
 * CSRF: a state-changing request (any method but GET, HEAD and OPTIONS) must name a trusted Origin —
 * a configured one or its own host — besides SameSite=Lax on the cookie. Browsers send Origin with
 * every such request, so only forged cross-site requests are refused. GET runs nothing that changes
 * state (GraphQL over GET runs queries only: modules/graphql). The product's apps' origins are accepted for
 * the calls they need and no others (app-origins.ts).
 */
export function registerCsrfHook(app: FastifyInstance, origins: readonly string[], appOrigins: ReadonlySet<string> = new Set()): void {
  const allowed = new Set(origins);
  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise each time.
  app.addHook('onRequest', (request, _reply, done) => {
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config?.csrf === false || isTrustedOrigin(request, allowed)) return done();
    // The product's apps make a few calls of their own (app-origins.ts): those alone accept their origins.
    if (isProductAppCall(request, appOrigins)) return done();
    done(appError('csrf_origin_refused'));
  });
}

/**
 * Sets request.actor from the `__admin_session` cookie (one statement: session-actor.ts), and refuses a request
 * whose X-Acting-User names someone else than the session's user (a tab left open by another user). Routes with
 * `config.signedLink` are skipped: their link names the session that asked for it.
 */
export function registerActorHook(app: FastifyInstance, options: { db: Kysely<DB>; secret: string; providerDomain: string }): void {
  if (!app.hasRequestDecorator('actor')) app.decorateRequest('actor', null);
  if (!app.hasRequestDecorator('sessionRef')) app.decorateRequest('sessionRef', null);
  if (!app.hasRequestDecorator('pendingActor')) app.decorateRequest('pendingActor', null);
  const readActor = async (request: FastifyRequest, token: string, acting: unknown) => {
    const actor = await findActorBySessionToken(options.db, token);
    if (!actor) return;
    const full = { ...actor, client: clientOf(request), providerStaff: isProviderStaffEmail(actor.email, options.providerDomain) };
    const path = request.url.split('?')[0] ?? '';
    if (typeof acting === 'string' && acting !== '' && acting !== actor.userId && !SIGN_IN_PREFIXES.some((p) => path.startsWith(p))) {
      throw actingUserMismatch();
    }
    // A session waiting for its second step is nobody's yet: only the second step itself knows whose it is.
    if (actor.twoStep === 'second-step') {
      request.pendingActor = full;
      if (!openWhileTwoStep(path, 'second-step')) throw appError('two_step_required');
      return;
    }
    if (actor.twoStep === 'enrol' && !openWhileTwoStep(path, 'enrol')) {
      if (isDataPath(path)) throw appError('two_step_enrolment_required');
      // Any other route that reads request.actor (avatars, analytics files) answers 401: the session opens nothing.
      return;
    }
    request.actor = full;
  };
  // A callback hook: a request without a session (the sign-in screen) costs no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    request.actor = null;
    request.sessionRef = null;
    request.pendingActor = null;
    // A route opened by a signed link checks the session the link names (access/signed-links.ts): the cookie a
    // browser sends along is not looked up, so a dashboard's many data calls cost no session reads.
    if (request.routeOptions.config?.signedLink || !hasSessionCookie(request)) return done();
    const token = sessionTokenOf(request.headers.cookie ?? '', options.secret);
    if (!token) return done();
    const acting = request.headers[ACTING_USER_HEADER];
    if (request.routeOptions.config?.sessionInStatement) {
      // The route reads the session in its own statement and refuses as below (access/actor.ts checkSessionActor).
      request.sessionRef = { token, actingUser: typeof acting === 'string' && acting !== '' ? acting : null };
      return done();
    }
    readActor(request, token, acting).then(() => done(), done);
  });
}
