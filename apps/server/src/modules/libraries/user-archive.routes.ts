import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import {
  deleteCheckSchema,
  libraryTeacherParamsSchema as teacherParamsSchema,
  organisationBodySchema,
  organisationQuerySchema,
  userArchiveBodySchema,
  userArchivedSchema,
} from '@quire/core';
import { organisationIdOf } from './organisation-id.js';
import { archiveUser, deleteCheck } from './user-archive.service.js';

const tags = ['teacher libraries'];
const PREFIX = '/api/admin-tools/v2/:teacherId/users';

/** The Delete account flow: may the teacher's account go, then remove it from the organisation (spec §7). */
export const userArchiveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    `${PREFIX}/delete-check`,
    {
      schema: {
        tags,
        summary: 'Whether the teacher can be deleted, and why not',
        params: teacherParamsSchema,
        querystring: organisationQuerySchema,
        body: organisationBodySchema,
        response: { 200: deleteCheckSchema },
      },
    },
    async (request) =>
      deleteCheck(app.db, requireActor(request), {
        organisationId: organisationIdOf(request, request.body),
        teacherId: request.params.teacherId,
        providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN,
      }),
  );

  app.post(
    `${PREFIX}/archive`,
    {
      schema: {
        tags,
        summary: 'Remove the teacher from the organisation and close their libraries',
        params: teacherParamsSchema,
        querystring: organisationQuerySchema,
        body: userArchiveBodySchema,
        response: { 200: userArchivedSchema },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      return withIdempotency(app.db, request, actor, () =>
        archiveUser(app.db, actor, {
          organisationId: organisationIdOf(request, request.body),
          organisationName: request.body.organisationName,
          libraries: request.body.libraries,
          teacherId: request.params.teacherId,
          providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN,
        }),
      );
    },
  );
};
