import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { convertToStudentBodySchema, convertToStudentParamsSchema, convertToStudentResultSchema } from '@quire/core';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { convertToStudent } from './convert-student.service.js';

/** Switch to student (spec §7: POST {api}/users/v2/{userId}/convert-to-student). */
export const convertStudentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/users/v2/:userId/convert-to-student',
    {
      schema: {
        tags: ['teachers'],
        summary: 'Switch a teacher to a student account',
        params: convertToStudentParamsSchema,
        body: convertToStudentBodySchema,
        response: { 200: convertToStudentResultSchema },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      return withIdempotency(app.db, request, actor, () => convertToStudent(app.db, actor, { userId: request.params.userId, ...(request.body ?? {}) }));
    },
  );
};
