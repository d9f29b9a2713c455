import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  effectiveSettingsSchema,
  errorResponseSchema,
  organisationSettingsSchema,
  settingPoliciesUpdateSchema,
  settingsReadSchema,
  settingsParamsSchema,
  settingsQuerySchema,
  settingsUpdateSchema,
  userAppsParamsSchema,
  userAppsSchema,
} from '@quire/core';
import { requireActor, requireSessionRef } from '../access/actor.js';
import { appsForUser, readEffectiveSettings, readSettings, updateSettings } from './settings.service.js';
import { updateSettingPolicies } from './setting-policies.service.js';

const tags = ['settings'];
const PREFIX = '/api/organisations/:orgId';
const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const writeErrors = { ...errors, 409: errorResponseSchema };

/** Organisation settings (spec §7 "Settings", paths designed: docs/settings.md). */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${PREFIX}/settings`,
    {
      schema: {
        tags,
        summary: 'Read organisation settings (apps and image search) in force; with include=sources, where each comes from',
        description:
          'Admins and library managers of the organisation. `userId`, when sent, must be the signed-in user. The values in force: the organisation’s own, or an organisation above’s where it applies one (a district’s lock or default). With `include=sources` the answer adds, per setting, its source (`own`, `locked` or `default` by `setBy`, an organisation above, or `built-in`), the organisation’s own value (kept under a lock) and the nearest default above, the organisation’s own policies for those below it and `hasOrganisationsBelow`. Read with the session and the access check in one statement over the organisation tree.',
        params: settingsParamsSchema,
        querystring: settingsQuerySchema,
        response: { 200: settingsReadSchema, ...errors },
      },
      // The session is read in the settings' own statement: one statement a request (docs/districts.md).
      config: { sessionInStatement: true },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { userId, include } = request.query;
      const caller = requireSessionRef(request);
      const orgId = request.params.orgId;
      return include === 'sources' ? readEffectiveSettings(app.db, caller, orgId, userId) : readSettings(app.db, caller, orgId, userId);
    },
  );

  app.patch(
    `${PREFIX}/settings`,
    {
      schema: {
        tags,
        summary: 'Update organisation settings (partial, merged)',
        description:
          'Admins only. Send only what changes: `{ "apps": { "giphy": -1 } }` (1 teachers only, -1 disabled for everyone, 0 teachers and students on purpose, null back to the district default or the built-in value) or `{ "imageSearch": "pixabay" }` / `"google"` / `null`. Other apps and settings keep their stored values. Unknown apps or values: 400. A setting locked by an organisation above: 409 `setting_locked_by_district`, nothing changed. Answers the settings in force after the change.',
        params: settingsParamsSchema,
        querystring: settingsQuerySchema,
        body: settingsUpdateSchema,
        response: { 200: organisationSettingsSchema, ...writeErrors },
      },
    },
    async (request) => updateSettings(app.db, requireActor(request), request.params.orgId, request.body, request.query.userId),
  );

  app.patch(
    `${PREFIX}/setting-policies`,
    {
      schema: {
        tags,
        summary: 'Set policies for the organisations below (a district over its schools)',
        description:
          'The organisation’s admins only. Per setting, a value for every organisation below, `locked` (they cannot change it) or `default` (they follow it until they choose their own): `{ "apps": { "giphy": { "mode": "locked", "value": -1 } } }`, `{ "imageSearch": { "mode": "default", "value": "pixabay" } }`; null returns a setting to Let schools decide. 409 `setting_policies_need_schools` at an organisation with nothing under it, 409 `setting_locked_by_district` for a setting an organisation above has locked. Answers the effective settings.',
        params: settingsParamsSchema,
        body: settingPoliciesUpdateSchema,
        response: { 200: effectiveSettingsSchema, ...writeErrors },
      },
    },
    async (request) => updateSettingPolicies(app.db, requireActor(request), request.params.orgId, request.body),
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
