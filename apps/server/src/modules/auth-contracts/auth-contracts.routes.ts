import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminAuthBodySchema,
  allowedAsTeacherBodySchema,
  allowedAsTeacherSchema,
  authEmailBodySchema,
  customTokenSchema,
  signInMethodsSchema,
} from '@quire/core';
import { unauthorised } from '../../errors.js';
import { textResponse } from '../../plugins/api-docs.js';
import { toFetchHeaders, hasSessionCookie } from '../identity/identity.hooks.js';
import { configuredProviders } from '../identity/oidc-providers.js';
import { accountLimits, authRateLimit, registerAuthRateLimit } from '../identity/rate-limit.js';
import {
  assertAllowedAsTeacher,
  customTokenForSession,
  registerWithPassword,
  signInWithPassword,
  type AuthContractsDeps,
} from './auth-contracts.service.js';
import { acceptFormBodies, formFlag } from './form-body.js';

const clientMeta = (request: FastifyRequest) => ({
  ipAddress: request.ip ?? null,
  userAgent: request.headers['user-agent'] ?? null,
});

/** Spec §7 {auth} and {payments} sign-in contracts (docs/identity.md). */
export async function authContractsRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const deps: AuthContractsDeps = { auth: app.auth, db: app.db, env: app.env };
  acceptFormBodies(app);
  await registerAuthRateLimit(app);
  const isRegistration = (request: FastifyRequest) => formFlag((request.body as { registrationAttempt?: unknown } | undefined)?.registrationAttempt);
  const passwordTries = accountLimits(app, 'password', (request) => !isRegistration(request));
  const registrations = accountLimits(app, 'mail', isRegistration);
  const lookups = accountLimits(app, 'lookup');
  const adminAuthTries = accountLimits(app, 'password', (request) => {
    const body = request.body as { email?: unknown; password?: unknown } | null | undefined;
    return Boolean(body?.email && body.password);
  });

  app.post(
    '/auth/email',
    {
      schema: { tags: ['auth'], summary: 'E-mail sign-in (or sign-up): a custom token', body: authEmailBodySchema, response: { 200: customTokenSchema } },
      config: { rateLimit: authRateLimit(10) },
      preHandler: [passwordTries.preHandler, registrations.preHandler],
      onResponse: passwordTries.onResponse,
    },
    async (request) => {
      const body = request.body;
      const result = formFlag(body.registrationAttempt)
        ? await registerWithPassword(deps, { email: body.email, password: body.password, displayName: body.displayName ?? '' })
        : await signInWithPassword(deps, body, clientMeta(request));
      return { token: result.token, emailVerified: result.emailVerified };
    },
  );

  app.post(
    '/auth/allowed-as-teacher',
    {
      schema: { tags: ['auth'], summary: 'May this address sign up as a teacher (403 when not)', body: allowedAsTeacherBodySchema, response: { 200: allowedAsTeacherSchema } },
      config: { rateLimit: authRateLimit(30, 'other') },
      preHandler: lookups.preHandler,
    },
    async (request) => {
      await assertAllowedAsTeacher(deps, request.body);
      return { allowed: true as const };
    },
  );

  app.get(
    '/auth/methods',
    { schema: { tags: ['auth'], summary: 'The sign-in methods this server is configured for', response: { 200: signInMethodsSchema } } },
    async () => ({ ...configuredProviders(app.env), email: true }),
  );

  app.post(
    '/payments/v1/admin/auth',
    {
      schema: {
        tags: ['auth'],
        summary: 'A custom token for e-mail and password, or for the session the cookie names',
        body: adminAuthBodySchema,
        response: { 200: textResponse('text/plain', 'The custom token') },
      },
      config: { rateLimit: authRateLimit(10) },
      preHandler: adminAuthTries.preHandler,
      onResponse: adminAuthTries.onResponse,
    },
    async (request, reply) => {
      const credentials = request.body;
      let token: string;
      if (credentials?.email && credentials.password) {
        token = (await signInWithPassword(deps, { email: credentials.email, password: credentials.password }, clientMeta(request))).token;
      } else if (hasSessionCookie(request)) {
        token = await customTokenForSession(deps, toFetchHeaders(request.headers));
      } else {
        throw unauthorised();
      }
      return reply.type('text/plain; charset=utf-8').send(token);
    },
  );
}
