import type { FastifyInstance } from 'fastify';
import { SCIM_BASE_PATH } from '@quire/core';
import type { ServerModule } from '../../plugins/server-module.js';
import { scimRoutes } from './scim.routes.js';
import { scimTokensRoutes } from './scim-tokens.routes.js';

/**
 * Automatic provisioning over SCIM 2.0 (docs/provisioning.md): the console's token and request-log routes, and the
 * SCIM endpoint itself under /scim/v2 in its own scope (its own error format, body parser and token check).
 */
async function scimPlugin(app: FastifyInstance): Promise<void> {
  await app.register(scimTokensRoutes);
  await app.register(scimRoutes, { prefix: SCIM_BASE_PATH });
}

export const scimModule: ServerModule = { name: 'scim', plugin: scimPlugin };
