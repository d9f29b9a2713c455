import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminSessionBodySchema,
  adminSessionSchema,
  emailParamsSchema,
  providerNamesSchema,
  resendEmailSchema,
} from '@quire/core';
import { appError } from '../../errors.js';
import { emptyResponse } from '../../plugins/api-docs.js';
import { clientOf, requireActor } from '../access/actor.js';
import { linkSigner } from '../access/signed-links.js';
import { publicUrl } from '../../env.js';
import { verifyIdToken } from '../identity/id-token.js';
import { CONFLICT_COOKIE } from '../identity/identity.routes.js';
import { accountLimits, authRateLimit, registerAuthRateLimit } from '../identity/rate-limit.js';
import { verifySignedValue } from '../identity/tokens.js';
import { providerNamesFor, recordAccess, recordConsoleSignIn, resendVerification, type AuthContractsDeps } from './auth-contracts.service.js';

/** Spec §7 {api} identity contracts (docs/identity.md). */
export async function apiIdentityRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const deps: AuthContractsDeps = { auth: app.auth, db: app.db, env: app.env };
  const issuer = publicUrl(app.env);
  const conflicts = linkSigner(app.env.AUTH_SECRET, 'sign-in-conflict');
  await registerAuthRateLimit(app);
  const lookups = accountLimits(app, 'lookup');
  const mails = accountLimits(app, 'mail');
  const client = (request: FastifyRequest) => ({ ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null });

  // POST {api}{token}: the console posts the ID token to open its admin session.
  app.post(
    '/api/token',
    { schema: { tags: ['auth'], summary: 'Open the admin session for an ID token', body: adminSessionBodySchema, response: { 200: adminSessionSchema } } },
    async (request, reply) => {
    const { token, userProperties } = request.body;
    const claims = token ? await verifyIdToken(app.auth, token, issuer) : null;
    if (!claims || !request.actor || claims.sub !== request.actor.userId) {
      const conflict = request.cookies[CONFLICT_COOKIE];
      const email = conflict ? verifySignedValue(conflicts, conflict) : null;
      if (email) {
        reply.clearCookie(CONFLICT_COOKIE, { path: '/api/token' });
        throw appError('auth/account-exists-with-different-credential', { details: {
          providerIds: await providerNamesFor(deps, email),
        } });
      }
      throw appError('auth/invalid-id-token', { details: { providerIds: [] } });
    }
    await recordAccess(deps, { userId: claims.sub, event: 'sign-in', ...client(request) });
    await recordConsoleSignIn(deps, { userId: claims.sub, email: request.actor.email, name: request.actor.displayName }, clientOf(request));
    request.log.info({ userId: claims.sub, userProperties }, 'admin session opened');
    return {
      uid: claims.sub,
      email: claims.email,
      displayName: claims.name,
      emailVerified: claims.email_verified,
      bc_orgs: claims.bc_orgs,
    };
    },
  );

  app.get(
    '/api/users/v2/providers/:email',
    {
      schema: { tags: ['auth'], summary: "The account's sign-in methods", params: emailParamsSchema, response: { 200: providerNamesSchema } },
      config: { rateLimit: authRateLimit(30, 'other') },
      preHandler: lookups.preHandler,
    },
    async (request) => providerNamesFor(deps, request.params.email),
  );

  app.post(
    '/api/resend-email/:email',
    {
      schema: { tags: ['auth'], summary: 'Send the verification mail again', params: emailParamsSchema, response: { 200: resendEmailSchema } },
      config: { rateLimit: authRateLimit(5, 'other') },
      preHandler: mails.preHandler,
    },
    async (request) => {
      await resendVerification(deps, request.params.email);
      return { sent: true as const };
    },
  );

  app.post(
    '/api/v2/access-log/re-auth',
    { schema: { tags: ['auth'], summary: 'Record that the session was renewed', response: { 204: emptyResponse('Recorded') } } },
    async (request, reply) => {
      const actor = requireActor(request);
      await recordAccess(deps, { userId: actor.userId, event: 're-auth', ...client(request) });
      return reply.status(204).send(null);
    },
  );
}
