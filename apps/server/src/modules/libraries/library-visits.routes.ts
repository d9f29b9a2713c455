import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../access/actor.js';
import { joinLibraryBodySchema, joinLibraryParamsSchema, joinLibraryResultSchema, organisationQuerySchema, visitTokenParamsSchema } from '@quire/core';
import { emptyResponse } from '../../plugins/api-docs.js';
import { exchangeVisitToken, joinLibrary } from './library-visits.service.js';
import { organisationIdOf } from './organisation-id.js';

const tags = ['teacher libraries'];

/** Visiting a teacher's library: the join call and the single-use link it answers (docs/libraries-api.md). */
export const libraryVisitsRoutes: FastifyPluginAsyncZod = async (app) => {
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
    async (request) => {
      const { reason, otherReason } = request.body;
      return joinLibrary(
        {
          db: app.db,
          mail: app.mail,
          productName: app.env.PRODUCT_NAME,
          logError: (err, line) => request.log.error({ err }, line),
        },
        requireActor(request),
        { organisationId: organisationIdOf(request, request.body), ...request.params, reason, otherReason },
      );
    },
  );

  app.get(
    '/api/library-visit/:token',
    {
      schema: {
        tags,
        summary: 'Open a visited library in the product app (single use)',
        params: visitTokenParamsSchema,
        response: { 302: emptyResponse("Redirect to the library in the product's app (APP_URL)") },
      },
    },
    async (request, reply) => {
      const location = await exchangeVisitToken(app.db, app.env.APP_URL, request.params.token);
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    },
  );
};
