import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assignLicenseBodySchema,
  assignLicenseParamsSchema,
  licenseAllocationsParamsSchema,
  licenseAllocationsSchema,
  licenseAssignmentSchema,
  errorResponseSchema,
  setLicenseAllocationBodySchema,
  setLicenseAllocationParamsSchema,
} from '@quire/core';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { getLicenseAllocations, setLicenseAllocation } from './license-allocations.service.js';
import { assignLicense } from './licenses.service.js';

/** The refusals of the allocation routes (codes of the error catalogue). */
const allocationErrors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

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

  app.get(
    '/payments/v1/admin/organisations/:orgId/licenses/:licenseId/allocations',
    {
      schema: {
        tags: ['licenses'],
        summary: "A district licence's seats allocated to each school directly below the district",
        params: licenseAllocationsParamsSchema,
        response: { 200: licenseAllocationsSchema, ...allocationErrors },
      },
    },
    async (request) => getLicenseAllocations(app.db, requireActor(request), { organisationId: request.params.orgId, licenseId: request.params.licenseId }),
  );

  app.put(
    '/payments/v1/admin/organisations/:orgId/licenses/:licenseId/allocations/:schoolId',
    {
      schema: {
        tags: ['licenses'],
        summary: "Set a school's allocation of a district licence (district admins; 0 returns every seat)",
        params: setLicenseAllocationParamsSchema,
        body: setLicenseAllocationBodySchema,
        response: { 200: licenseAllocationsSchema, ...allocationErrors, 409: errorResponseSchema },
      },
    },
    async (request) => {
      const actor = requireActor(request);
      return withIdempotency(app.db, request, actor, () =>
        setLicenseAllocation(app.db, actor, { organisationId: request.params.orgId, licenseId: request.params.licenseId, schoolId: request.params.schoolId, seats: request.body.seats }),
      );
    },
  );
};
