import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  identityProviderAnswerSchema,
  identityStatusSchema,
  identitySessionSchema,
  identityUserSchema,
  idTokenSchema,
  INPUT_LIMITS,
  oauthStartSchema,
  passwordResetRequestedSchema,
  signOutSchema,
} from '@quire/core';
import { appError, noRoute } from '../../errors.js';
import { clientOf, requireActor } from '../access/actor.js';
import { recordAuditIn } from '../access/audit.js';
import { listedAdminOrganisations } from '../access/org-access.js';
import { linkSigner } from '../access/signed-links.js';
import { publicUrl } from '../../env.js';
import { errorCatalogue, isProviderStaffEmail, isValidEmail, normaliseEmail, SESSION_COOKIE_NAME } from '@quire/core';
import { VERIFY_EMAIL_PAGE, EMAIL_VERIFICATION_SECONDS, type Auth } from './auth.js';
import { hasSessionCookie, toFetchHeaders } from './identity.hooks.js';
import { checkAvatarPixels } from './avatar-pixels.js';
import { isSameOrigin } from './origins.js';
import { isProductAppCall, productAppOrigins } from './app-origins.js';
import { identityRequestNotes, type IdentityRequestNotes } from './oidc-providers.js';
import { findUserByEmail, findUserById, findVerificationMarker, insertVerificationMarker } from './identity.repository.js';
import { accountLimits, authRateLimit, registerAuthRateLimit } from './rate-limit.js';
import { hashToken, signValue } from './tokens.js';

/** Short-lived cookie naming the e-mail of a refused provider sign-in (read by POST /api/token). */
export const CONFLICT_COOKIE = '__identity_conflict';
const CONFLICT_SECONDS = 300;
/** The single-use sign-in token's exchange (LTI launches, library visits, the console's own custom token). */
const ONE_TIME_TOKEN_PATH = '/identity/one-time-token/verify';
/** Paths after which the browser holds a new session: the one it held before is ended (rotation). */
const SIGN_IN_PATHS = new Set([ONE_TIME_TOKEN_PATH, '/identity/sign-in/email', '/identity/sign-up/email']);
/** The provider's refusals of a token that was used, expired, or names a session that has ended. */
const UNUSABLE_TOKEN_MESSAGES = new Set(['Invalid token', 'Session not found', 'Session expired']);
const SKIPPED_RESPONSE_HEADERS = new Set(['set-cookie', 'content-length', 'transfer-encoding', 'connection']);

/** `token` of the session cookie among Set-Cookie lines (the part before the signature), or null. */
function sessionTokenIn(cookies: readonly string[]): string | null {
  const line = cookies.find((c) => c.startsWith(`${SESSION_COOKIE_NAME}=`));
  if (!line) return null;
  const value = decodeURIComponent(line.slice(SESSION_COOKIE_NAME.length + 1).split(';')[0] ?? '');
  return value ? (value.split('.')[0] ?? null) : null;
}

/**
 * The session token is the cookie's secret (HttpOnly): JSON answers never carry it, whether a session
 * (`get-session`), a list of them (`list-sessions`) or a sign-in's `{ token, user }`.
 */
function withoutSessionTokens(body: Buffer, contentType: string | null): Buffer {
  if (!contentType?.includes('json') || body.length === 0) return body;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  const strip = (item: unknown) => {
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const record = item as Record<string, unknown>;
      delete record.token;
      if (record.session && typeof record.session === 'object') delete (record.session as Record<string, unknown>).token;
    }
  };
  if (Array.isArray(value)) value.forEach(strip);
  else strip(value);
  return Buffer.from(JSON.stringify(value));
}

/**
 * Runs right after a sign-in made a session, with the browser's cookies: 'second-step' when that session must still
 * pass its second step (2-step verification, wired by app.ts), else null.
 */
export type SignInListener = (sessionToken: string, cookies: Record<string, string | undefined>) => Promise<'second-step' | null>;

/** A session answer (`{ session, user }`) with Quire's `twoStep` note added when the session is held back by it. */
function withTwoStep(body: Buffer, twoStep: 'second-step' | 'enrol' | null): Buffer {
  if (!twoStep || body.length === 0) return body;
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value) || !('user' in value)) return body;
    return Buffer.from(JSON.stringify({ ...value, twoStep }));
  } catch {
    return body;
  }
}

/** Names, avatars, addresses and passwords longer than INPUT_LIMITS are refused (400) before the provider sees them. */
async function checkProfileLimits(request: FastifyRequest): Promise<void> {
  if (!Buffer.isBuffer(request.body) || request.body.length === 0) return;
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString('utf8'));
  } catch {
    return;
  }
  if (!body || typeof body !== 'object') return;
  const fields = body as Record<string, unknown>;
  const tooLong = (key: string, max: number) => typeof fields[key] === 'string' && (fields[key] as string).length > max;
  if (tooLong('name', INPUT_LIMITS.displayNameMax)) throw appError('name_too_long');
  if (tooLong('image', INPUT_LIMITS.avatarMax)) throw appError('avatar_too_large');
  if (typeof fields.image === 'string') await checkAvatarPixels(fields.image);
  if (tooLong('email', INPUT_LIMITS.emailMax)) throw appError('auth/invalid-email');
  if (tooLong('password', INPUT_LIMITS.passwordMax)) throw appError('password_too_long');
}

/**
 * The identity provider under /identity: Better Auth's handler behind a Fastify catch-all, plus the
 * spec's extras (single-use verification links, session rotation, provider-conflict note, /users/{uid}).
 */
export async function identityRoutes(instance: FastifyInstance, opts: { auth: Auth; onSignIn?: SignInListener }): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const { auth } = opts;
  const origin = publicUrl(app.env);
  // The provider-conflict note is a signed value of its own purpose, never signed with the session cookie's key.
  const conflicts = linkSigner(app.env.AUTH_SECRET, 'sign-in-conflict');
  const appOrigins = productAppOrigins(app.env);

  // Better Auth reads the raw body itself.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  await registerAuthRateLimit(app);

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    const query = new URL(request.url, origin).searchParams;

    const verificationToken = path === '/identity/verify-email' ? query.get('token') : null;
    const usedMarker = verificationToken ? `used-email-verification:${hashToken(verificationToken)}` : null;
    if (usedMarker && (await findVerificationMarker(app.db, usedMarker))) {
      return reply.redirect(`${VERIFY_EMAIL_PAGE}?error=invalid_token`);
    }

    const previousSession =
      SIGN_IN_PATHS.has(path) && hasSessionCookie(request)
        ? await auth.api.getSession({ headers: toFetchHeaders(request.headers), query: { disableRefresh: true } })
        : null;

    const headers = toFetchHeaders(request.headers);
    // The identity provider sees the client address Fastify decided on (TRUST_PROXY), not a header a
    // client chose, and a same-origin request (checked by the CSRF hook) as coming from the console.
    headers.set('x-forwarded-for', request.ip);
    const requestOrigin = request.headers.origin;
    // The product's apps' calls (checked by the same hook, app-origins.ts) too.
    if (typeof requestOrigin === 'string' && (isSameOrigin(request, requestOrigin) || isProductAppCall(request, appOrigins))) headers.set('origin', new URL(origin).origin);
    const init: RequestInit = { method: request.method, headers };
    if (Buffer.isBuffer(request.body) && request.body.length > 0) init.body = request.body;
    const notes: IdentityRequestNotes = {};
    const response = await identityRequestNotes.run(notes, () => auth.handler(new Request(new URL(request.url, origin), init)));

    // The provider's own 5xx (e.g. its database down) becomes the one error handler's generic answer.
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new Error(`identity provider answered ${response.status} for ${request.method} ${path}`);
    }
    if (path === ONE_TIME_TOKEN_PATH && response.status === 400) {
      const refusal = (await response.clone().json().catch(() => null)) as { message?: unknown } | null;
      if (typeof refusal?.message === 'string' && UNUSABLE_TOKEN_MESSAGES.has(refusal.message)) {
        await response.body?.cancel();
        throw appError('sign_in_link_used');
      }
    }
    // A path the provider does not know: the JSON 404 every other prefix answers, not its empty one.
    if (response.status === 404 && !response.headers.get('content-type')) {
      await response.body?.cancel();
      throw noRoute(request);
    }
    const location = response.headers.get('location') ?? '';
    const cookies = response.headers.getSetCookie();
    const succeeded = response.status < 300 || (response.status < 400 && !/[?&]error=/.test(location));

    if (usedMarker && succeeded) {
      await insertVerificationMarker(app.db, usedMarker, new Date(Date.now() + (EMAIL_VERIFICATION_SECONDS + 3600) * 1000));
    }
    // A custom token from {payments}/v1/admin/auth may name the session the browser already holds:
    // that one is kept, only a session replaced by another is ended.
    const newSessionToken = sessionTokenIn(cookies);
    if (previousSession && succeeded && cookies.length && newSessionToken !== previousSession.session.token) {
      const context = await auth.$context;
      await context.internalAdapter.deleteSession(previousSession.session.token);
    }
    if (notes.providerEmail && location.includes('error=account_not_linked')) {
      const value = signValue(conflicts, notes.providerEmail, new Date(Date.now() + CONFLICT_SECONDS * 1000));
      cookies.push(`${CONFLICT_COOKIE}=${value}; Max-Age=${CONFLICT_SECONDS}; Path=/api/token; HttpOnly; Secure; SameSite=Lax`);
    }

    // A sign-out is recorded in the audit log of each organisation the person is listed as an admin of.
    if (path === '/identity/sign-out' && succeeded && request.actor) {
      const actor = request.actor;
      const organisations = await listedAdminOrganisations(app.db, { userId: actor.userId, email: actor.email });
      if (organisations.length) await app.db.transaction().execute((trx) => recordAuditIn(trx, organisations, actor, { action: 'console.sign_out' }));
    }

    // A wrong password sent to the provider's own e-mail sign-in is recorded as the console's is (POST {auth}/email):
    // in the audit log of each organisation the address is listed as an admin of, with the reason.
    if (path === '/identity/sign-in/email' && response.status === 401) await recordRefusedSignIn(request);

    // A sign-in that made a session (any method: password, custom token, a provider's callback): a browser the
    // person trusts passes the second step at once; otherwise the answer says that one is needed.
    let twoStep: 'second-step' | 'enrol' | null = null;
    if (succeeded && newSessionToken) {
      twoStep = opts.onSignIn ? await opts.onSignIn(newSessionToken, request.cookies ?? {}) : null;
    } else if (path === '/identity/get-session') {
      twoStep = request.pendingActor ? 'second-step' : (request.actor?.twoStep ?? null);
    }

    reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (!SKIPPED_RESPONSE_HEADERS.has(name)) reply.header(name, value);
    });
    if (cookies.length) reply.header('set-cookie', cookies);
    const body = Buffer.from(await response.arrayBuffer());
    if (path === '/identity/token') return reply.send(body);
    return reply.send(withTwoStep(withoutSessionTokens(body, response.headers.get('content-type')), twoStep));
  };

  const recordRefusedSignIn = async (request: FastifyRequest) => {
    let email = '';
    try {
      const body = JSON.parse(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '{}') as { email?: unknown };
      email = typeof body.email === 'string' ? normaliseEmail(body.email) : '';
    } catch {
      return;
    }
    if (!isValidEmail(email)) return;
    const user = await findUserByEmail(app.db, email);
    const organisations = await listedAdminOrganisations(app.db, { userId: user?.id ?? null, email });
    if (organisations.length === 0) return;
    const actor = {
      userId: user?.id ?? '',
      email,
      displayName: user?.name ?? '',
      emailVerified: true,
      client: clientOf(request),
      providerStaff: isProviderStaffEmail(email, app.env.PROVIDER_EMAIL_DOMAIN),
    };
    const code = user ? ('auth/wrong-password' as const) : ('auth/user-not-found' as const);
    await app.db.transaction().execute((trx) =>
      recordAuditIn(trx, organisations, actor, { action: 'console.sign_in', outcome: 'refused', errorCode: code, details: { reason: errorCatalogue[code].message, via: 'identity provider' } }),
    );
  };

  // Sign-in, registration, reset and resend: limited per client address and e-mail, and by the shared
  // per-account and per-address budgets (rate-limit.ts, ACCOUNT_LIMITS).
  const passwordTries = accountLimits(app, 'password', (request) => (request.url.split('?')[0] ?? '').endsWith('/email'));
  const mails = accountLimits(app, 'mail');
  // Every route documents its answer (/docs): the calls the console reads by their contract in @quire/core,
  // the provider's other endpoints as its own JSON. The answer itself is the provider's, passed through.
  const answers = (summary: string, schema: z.core.$ZodType = identityProviderAnswerSchema) => ({ tags: ['identity'], summary, response: { 200: schema } });
  const signIn = { config: { rateLimit: authRateLimit(10) }, preHandler: passwordTries.preHandler, onResponse: passwordTries.onResponse };
  app.post('/identity/sign-in/*', { ...signIn, schema: answers('Sign in (e-mail and password, OpenID Connect providers)') }, handle);
  app.post('/identity/sign-in/social', { ...signIn, schema: answers("A provider's authorisation URL for the pop-up", oauthStartSchema) }, handle);
  app.post('/identity/sign-up/*', { config: { rateLimit: authRateLimit(10, 'other') }, preHandler: [checkProfileLimits, mails.preHandler], schema: answers('Create an account') }, handle);
  app.post('/identity/update-user', { preHandler: checkProfileLimits, schema: answers("Change the signed-in user's name or picture", identityStatusSchema) }, handle);
  app.post(
    '/identity/request-password-reset',
    { config: { rateLimit: authRateLimit(5, 'other') }, preHandler: mails.preHandler, schema: answers('Mail a password-reset link', passwordResetRequestedSchema) },
    handle,
  );
  app.post('/identity/send-verification-email', { config: { rateLimit: authRateLimit(5, 'other') }, preHandler: mails.preHandler, schema: answers('Mail the verification link again', identityStatusSchema) }, handle);
  app.get('/identity/get-session', { schema: answers('The signed-in identity, or null', identitySessionSchema) }, handle);
  app.get('/identity/token', { schema: answers('A fresh ID token carrying bc_orgs (401 when the session is over)', idTokenSchema) }, handle);
  app.post('/identity/one-time-token/verify', { schema: answers('Sign in with a custom token', identitySessionSchema) }, handle);
  app.post('/identity/sign-out', { schema: answers('End the session', signOutSchema) }, handle);
  app.route({ method: ['GET', 'POST'], url: '/identity/*', schema: answers("The identity provider's other endpoints (Better Auth)"), handler: handle });

  // The SDK's read of /users/{uid}: the signed-in user's own record only.
  app.get(
    '/identity/users/:uid',
    { schema: { tags: ['identity'], summary: "The signed-in user's own record", params: z.object({ uid: z.string().min(1) }), response: { 200: identityUserSchema } } },
    async (request) => {
      const actor = requireActor(request);
      const { uid } = request.params;
      if (uid !== actor.userId) throw appError('forbidden', { message: 'You can only read your own user record' });
      const user = await findUserById(app.db, uid);
      if (!user) throw appError('user_not_found');
      return { uid: user.id, email: user.email, displayName: user.name, photoURL: user.image, emailVerified: user.emailVerified };
    },
  );
}
