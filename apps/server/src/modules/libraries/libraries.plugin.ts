import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { librariesRoutes } from './libraries.routes.js';
import { libraryVisitsRoutes } from './library-visits.routes.js';
import { userArchiveRoutes } from './user-archive.routes.js';

/** Every route of the teacher libraries feature (docs/libraries-api.md). */
async function librariesPlugin(app: FastifyInstance): Promise<void> {
  await app.register(librariesRoutes);
  await app.register(libraryVisitsRoutes);
  await app.register(userArchiveRoutes);
}

export const librariesModule: ServerModule = { name: 'libraries', plugin: librariesPlugin };
