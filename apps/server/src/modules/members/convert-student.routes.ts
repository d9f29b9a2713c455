import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { convertToStudent } from './convert-student.service.js';
import { convertBodySchema, convertParamsSchema } from './members.schemas.js';

/** Switch to student (spec §7: POST {api}/users/v2/{userId}/convert-to-student). */
export const convertStudentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/users/v2/:userId/convert-to-student',
    { schema: { tags: ['teachers'], summary: 'Switch a teacher to a student account', params: convertParamsSchema, body: convertBodySchema } },
    async (request) => {
      const actor = requireActor(request);
      return withIdempotency(app.db, request, actor, () => convertToStudent(app.db, actor, { userId: request.params.userId, ...(request.body ?? {}) }));
    },
  );
};
