import { organisationParamsSchema, teacherBulkActionSchema, teacherBulkResultSchema } from '@quire/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { runTeacherBulkAction } from './teachers-bulk.service.js';

/** Bulk actions on every teacher matching the list's filters (docs/teachers-api.md). */
export const teachersBulkRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/payments/v1/admin/organisations/:orgId/members/teachers/bulk',
    {
      schema: {
        tags: ['teachers'],
        summary: 'Assign or remove a licence for every teacher matching the filters',
        description:
          'Body: the action, and the selection { filter, expectedCount }. One transaction; 409 selection_changed when the ' +
          'filters no longer match expectedCount teachers, and nothing changes. Accepts an Idempotency-Key.',
        params: organisationParamsSchema,
        body: teacherBulkActionSchema,
        response: { 200: teacherBulkResultSchema },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      return withIdempotency(app.db, request, actor, () => runTeacherBulkAction(app.db, actor, { organisationId: request.params.orgId, action: request.body }));
    },
  );
};
