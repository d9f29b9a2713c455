import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { teacherResourcesSchema } from '@quire/core';
import { requireActor } from '../access/actor.js';
import { getTeacherResources } from './resources.service.js';

/** GET {api}/teacher-resources: the Teacher Resources page's cards, featured books and links. */
export const resourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/teacher-resources',
    { schema: { tags: ['teacher resources'], summary: 'Teacher Resources: grade labels, level and subject cards, featured books, promo links', response: { 200: teacherResourcesSchema } } },
    async (request, reply) => {
      requireActor(request);
      reply.header('cache-control', 'private, max-age=300');
      return getTeacherResources(app.db, app.env);
    },
  );
};
