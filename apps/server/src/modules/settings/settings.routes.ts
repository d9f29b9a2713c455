import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponseSchema,
  organisationSettingsSchema,
  settingsParamsSchema,
  settingsQuerySchema,
  settingsUpdateSchema,
  userAppsParamsSchema,
  userAppsSchema,
} from '@quire/core';
import { requireActor } from '../access/actor.js';
import { appsForUser, readSettings, updateSettings } from './settings.service.js';

const tags = ['settings'];
const PREFIX = '/api/organisations/:orgId';
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

/** Organisation settings (spec §7 "Settings", paths designed: docs/settings.md). */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${PREFIX}/settings`,
    {
      schema: {
        tags,
        summary: 'Read organisation settings (apps and image search)',
        description: 'Admins and library managers of the organisation. `userId`, when sent, must be the signed-in user.',
        params: settingsParamsSchema,
        querystring: settingsQuerySchema,
        response: { 200: organisationSettingsSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return readSettings(app.db, requireActor(request), request.params.orgId, request.query.userId);
    },
  );

  app.patch(
    `${PREFIX}/settings`,
    {
      schema: {
        tags,
        summary: 'Update organisation settings (partial, merged)',
        description:
          'Admins only. Send only what changes: `{ "apps": { "giphy": -1 } }` (1 teachers only, -1 disabled for everyone, null back to the default) or `{ "imageSearch": "pixabay" }` / `{ "imageSearch": null }`. Other apps and settings keep their stored values. Unknown apps or values: 400. Answers the settings after the change.',
        params: settingsParamsSchema,
        querystring: settingsQuerySchema,
        body: settingsUpdateSchema,
        response: { 200: organisationSettingsSchema, ...errors },
      },
    },
    async (request) => updateSettings(app.db, requireActor(request), request.params.orgId, request.body, request.query.userId),
  );

  app.get(
    `${PREFIX}/users/:userId/apps`,
    {
      schema: {
        tags,
        summary: 'Apps a user of the organisation may use, and their image search',
        description:
          'For the product: the user themself (a member or admin of the organisation), or the organisation’s admins and library managers. Students never get teacher-only apps or apps set to Teachers only; -1 disables an app for everyone.',
        params: userAppsParamsSchema,
        response: { 200: userAppsSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return appsForUser(app.db, requireActor(request), request.params.orgId, request.params.userId);
    },
  );
};
