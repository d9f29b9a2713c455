import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assignLicenseBodySchema, assignLicenseParamsSchema, licenseAssignmentSchema } from '@quire/core';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { assignLicense } from './licenses.service.js';

/** Assign license (spec §7: PUT {payments}/v1/admin/organisations/{orgId}/licenses/{licenseId}, body a list of member ids). */
export const licensesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.put(
    '/payments/v1/admin/organisations/:orgId/licenses/:licenseId',
    {
      schema: {
        tags: ['licenses'],
        summary: 'Assign a licence to teachers',
        params: assignLicenseParamsSchema,
        body: assignLicenseBodySchema,
        response: { 200: licenseAssignmentSchema },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      return withIdempotency(app.db, request, actor, () =>
        assignLicense(app.db, actor, {
          organisationId: request.params.orgId,
          licenseId: request.params.licenseId,
          memberIds: Array.isArray(request.body) ? request.body : request.body.memberIds,
        }),
      );
    },
  );
};
