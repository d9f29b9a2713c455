import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../access/actor.js';
import {
  librariesArchivedSchema,
  librariesReassignedSchema,
  libraryRelationSchema,
  libraryTeacherParamsSchema as teacherParamsSchema,
  organisationBodySchema,
  organisationQuerySchema,
  teacherLibrariesSchema,
  transferLibrariesParamsSchema as transferParamsSchema,
} from '@quire/core';
import { getTeacherLibraries, getTeacherLibrariesBy } from './libraries.service.js';
import { archiveAllLibraries, reassignAllLibraries } from './library-transfers.service.js';
import { organisationIdOf } from './organisation-id.js';

const tags = ['teacher libraries'];

/** Teacher libraries: lists, transfers, archive (spec §7), (docs/libraries-api.md); avatars are in modules/assets. */
export const librariesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/:teacherId',
    {
      schema: {
        tags,
        summary: "A teacher's libraries: unarchived and archived",
        params: teacherParamsSchema,
        querystring: organisationQuerySchema,
        response: { 200: teacherLibrariesSchema },
      },
    },
    async (request) =>
      getTeacherLibraries(app.db, requireActor(request), { organisationId: organisationIdOf(request), teacherId: request.params.teacherId }),
  );

  for (const relation of ['owned', 'joined'] as const) {
    app.get(
      `/api/:teacherId/${relation}`,
      {
        schema: {
          tags,
          summary: `Unarchived libraries the teacher ${relation === 'owned' ? 'owns' : 'joined'}`,
          params: teacherParamsSchema,
          querystring: organisationQuerySchema,
          response: { 200: libraryRelationSchema },
        },
      },
      async (request) =>
        getTeacherLibrariesBy(app.db, requireActor(request), { organisationId: organisationIdOf(request), teacherId: request.params.teacherId, relation }),
    );
  }

  app.put(
    '/api/:teacherId/admins/owner/all/:newOwnerId/:type',
    {
      schema: {
        tags,
        summary: "Reassign all the teacher's libraries",
        params: transferParamsSchema,
        querystring: organisationQuerySchema,
        response: { 200: librariesReassignedSchema },
      },
    },
    async (request) =>
      reassignAllLibraries(app.db, requireActor(request), {
        organisationId: organisationIdOf(request), ...request.params, providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN,
      }),
  );

  app.post(
    '/api/:teacherId/admins/archive/all',
    {
      schema: {
        tags,
        summary: "Archive all the teacher's libraries",
        params: teacherParamsSchema,
        querystring: organisationQuerySchema,
        body: organisationBodySchema,
        response: { 200: librariesArchivedSchema },
      },
    },
    async (request) =>
      archiveAllLibraries(app.db, requireActor(request), { organisationId: organisationIdOf(request, request.body), teacherId: request.params.teacherId }),
  );
};
