import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, generatedScimTokenSchema, organisationParamsSchema, scimRequestsSchema, scimSetupSchema, scimTokenParamsSchema } from '@quire/core';
import { requireActor } from '../access/actor.js';
import { withIdempotency } from '../access/idempotency.js';
import { generateScimToken, readScimRequests, readScimSetup, revokeScimToken } from './scim-tokens.service.js';

const tags = ['scim'];
const PREFIX = '/api/organisations/:orgId/scim';
const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

/** The console's Provisioning (SCIM) section: the base URL, tokens (generate, list, revoke) and recent requests. Admins only. */
export const scimTokensRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(`${PREFIX}/tokens`, {
    schema: {
      tags, summary: 'The SCIM base URL and the organisation’s live tokens (never the tokens themselves)',
      description: 'Admins of the organisation only (403 for library managers). Tokens newest first: id, last four characters, who generated it and when, last use.',
      params: organisationParamsSchema, response: { 200: scimSetupSchema, ...errors },
    },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return readScimSetup(app.db, app.env, requireActor(request), request.params.orgId);
  });

  app.post(`${PREFIX}/tokens`, {
    schema: {
      tags, summary: 'Generate a SCIM token (answered once)',
      description: 'A random 256-bit bearer token bound to this organisation; only its SHA-256 is stored. At most 10 live tokens (409 `scim_too_many_tokens`). Send an Idempotency-Key: a double click generates one token. Recorded in the audit trail as `scim.token.generated`.',
      params: organisationParamsSchema, response: { 200: generatedScimTokenSchema, 400: errorResponseSchema, ...errors, 409: errorResponseSchema },
    },
  }, async (request, reply) => {
    const actor = requireActor(request);
    const token = await withIdempotency(app.db, request, actor, () => generateScimToken(app.db, actor, request.params.orgId));
    return reply.header('cache-control', 'no-store').send(token);
  });

  app.delete(`${PREFIX}/tokens/:tokenId`, {
    schema: {
      tags, summary: 'Revoke a SCIM token',
      description: 'The next SCIM request made with it is refused (401). 404 `scim_token_not_found` for a token already revoked or of another organisation. Recorded as `scim.token.revoked`. Answers the tokens left.',
      params: scimTokenParamsSchema, response: { 200: scimSetupSchema, 400: errorResponseSchema, ...errors, 409: errorResponseSchema },
    },
  }, async (request) => {
    const actor = requireActor(request);
    return withIdempotency(app.db, request, actor, () => revokeScimToken(app.db, app.env, actor, request.params.orgId, request.params.tokenId));
  });

  app.get(`${PREFIX}/requests`, {
    schema: {
      tags, summary: 'The organisation’s last 50 SCIM requests (time, operation, user, outcome), newest first',
      params: organisationParamsSchema, response: { 200: scimRequestsSchema, ...errors },
    },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return readScimRequests(app.db, requireActor(request), request.params.orgId);
  });
};
