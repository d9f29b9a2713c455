import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../access/actor.js';
import { joinBodySchema, joinParamsSchema, organisationQuerySchema } from './libraries.schemas.js';
import { joinLibrary, type IssueSignInToken } from './library-visits.service.js';
import { organisationIdOf } from './organisation-id.js';

const tags = ['teacher libraries'];

export interface LibraryVisitsOptions {
  issueSignInToken: IssueSignInToken;
}

/** Visiting a teacher's library: the join call answers a sign-in-with-token link (docs/libraries-api.md). */
export const libraryVisitsRoutes: FastifyPluginAsyncZod<LibraryVisitsOptions> = async (app, options) => {
  app.post(
    '/api/:teacherId/admins/:libraryId/join',
    { schema: { tags, summary: "Join (visit) a teacher's library", params: joinParamsSchema, querystring: organisationQuerySchema, body: joinBodySchema } },
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
          issueSignInToken: options.issueSignInToken,
          client: { ipAddress: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null },
          logError: (err, line) => request.log.error({ err }, line),
        },
        requireActor(request),
        { organisationId: organisationIdOf(request, request.body), ...request.params, reason, otherReason },
      );
    },
  );
};
