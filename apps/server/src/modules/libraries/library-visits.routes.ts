import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { joinLibraryBodySchema, joinLibraryParamsSchema, joinLibraryResultSchema, organisationQuerySchema } from '@quire/core';
import { requireActor } from '../access/actor.js';
import { CUSTOM_TOKEN_MINUTES } from '../identity/auth.js';
import { issueCustomTokenForUser } from '../identity/custom-token.js';
import { joinLibrary, type IssueSignInToken } from './library-visits.service.js';
import { organisationIdOf } from './organisation-id.js';

const tags = ['teacher libraries'];

/** Visiting a teacher's library: the join call answers a sign-in-with-token link (docs/libraries-api.md). */
export const libraryVisitsRoutes: FastifyPluginAsyncZod = async (app) => {
  // A library visit ends with the identity provider's single-use sign-in token, as an LTI launch does (spec §4).
  const issueSignInToken: IssueSignInToken = async (userId, client) => ({
    token: await issueCustomTokenForUser(app.auth, userId, client),
    expiresAt: new Date(Date.now() + CUSTOM_TOKEN_MINUTES * 60_000),
  });

  app.post(
    '/api/:teacherId/admins/:libraryId/join',
    {
      schema: {
        tags,
        summary: "Join (visit) a teacher's library",
        params: joinLibraryParamsSchema,
        querystring: organisationQuerySchema,
        body: joinLibraryBodySchema,
        response: { 200: joinLibraryResultSchema },
      },
    },
    async (request, reply) => {
      const { reason, otherReason } = request.body;
      // The answer carries a sign-in credential: never cached.
      reply.header('cache-control', 'no-store');
      return joinLibrary(
        {
          db: app.db,
          mail: app.mail,
          productName: app.env.PRODUCT_NAME,
          providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN,
          appUrl: app.env.APP_URL,
          issueSignInToken,
          client: { ipAddress: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null },
          logError: (err, line) => request.log.error({ err }, line),
        },
        requireActor(request),
        { organisationId: organisationIdOf(request, request.body), ...request.params, reason, otherReason },
      );
    },
  );
};
