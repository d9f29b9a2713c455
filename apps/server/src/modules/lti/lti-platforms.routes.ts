import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponseSchema,
  ltiAdvantageSchema,
  ltiOrganisationParamsSchema,
  ltiPlatformInputSchema,
  ltiPlatformParamsSchema,
  ltiPlatformSchema,
  ltiRegistrationLinkSchema,
} from '@quire/core';
import { emptyResponse } from '../../plugins/api-docs.js';
import { requireActor } from '../access/actor.js';
import { createPlatform, deletePlatform, readAdvantage, updatePlatform } from './lti-platforms.service.js';
import { createRegistrationLink } from './lti-registration.service.js';

const tags = ['lti'];
const PREFIX = '/api/organisations/:orgId/lti/platforms';
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const writeErrors = { ...errors, 409: errorResponseSchema };

/** LTI 1.3 registrations of an organisation's learning platforms (docs/lti.md "LTI 1.3"): its admins only. */
export const ltiPlatformRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    PREFIX,
    {
      schema: {
        tags,
        summary: 'The tool’s LTI 1.3 values to paste into a platform, and the registered platforms',
        description: 'Admins of the organisation only.',
        params: ltiOrganisationParamsSchema,
        response: { 200: ltiAdvantageSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return readAdvantage(app.db, app.env, requireActor(request), request.params.orgId);
    },
  );

  app.post(
    PREFIX,
    {
      schema: {
        tags,
        summary: 'Register a learning platform for LTI 1.3',
        description:
          'Admins only. Issuer, client id, deployment ids, OIDC authorisation endpoint, token endpoint, JWKS URL: https (outside production, http on this computer’s own addresses too). 409 `lti_platform_exists` when the issuer and client id are registered already.',
        params: ltiOrganisationParamsSchema,
        body: ltiPlatformInputSchema,
        response: { 201: ltiPlatformSchema, ...writeErrors },
      },
    },
    async (request, reply) => reply.code(201).send(await createPlatform(app.db, app.env, requireActor(request), request.params.orgId, request.body)),
  );

  app.post(
    '/api/organisations/:orgId/lti/registrations',
    {
      schema: {
        tags,
        summary: 'A registration address for LTI Dynamic Registration (single use, 10 minutes)',
        description:
          'Admins only. The address (PUBLIC_URL/lti/1.3/register?t=…) is pasted into the learning platform as the tool’s registration URL; it is bound to this organisation and this admin. Asking again makes another; each works once.',
        params: ltiOrganisationParamsSchema,
        // 200, not 201: an address is handed out, nothing is stored until a platform uses it.
        response: { 200: ltiRegistrationLinkSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return createRegistrationLink(app.db, app.env, requireActor(request), request.params.orgId);
    },
  );

  app.put(
    `${PREFIX}/:platformId`,
    {
      schema: {
        tags,
        summary: 'Change a registered learning platform',
        params: ltiPlatformParamsSchema,
        body: ltiPlatformInputSchema,
        response: { 200: ltiPlatformSchema, ...writeErrors },
      },
    },
    async (request) => updatePlatform(app.db, app.env, requireActor(request), request.params.orgId, request.params.platformId, request.body),
  );

  app.delete(
    `${PREFIX}/:platformId`,
    {
      schema: {
        tags,
        summary: 'Remove a learning platform: its launches are refused from the next one on',
        params: ltiPlatformParamsSchema,
        response: { 204: emptyResponse('Removed (or already gone)'), ...errors },
      },
    },
    async (request, reply) => {
      await deletePlatform(app.db, requireActor(request), request.params.orgId, request.params.platformId);
      return reply.code(204).send(null);
    },
  );
};
