import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { assetsRoutes } from './assets.routes.js';
import { resourcesRoutes } from './resources.routes.js';

/** The {assets} service (avatars, covers) and the Teacher Resources data (docs/resources.md). */
async function assetsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(assetsRoutes);
  await app.register(resourcesRoutes);
}

export const assetsModule: ServerModule = { name: 'assets', plugin: assetsPlugin };
