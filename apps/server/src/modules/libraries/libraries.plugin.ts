import type { FastifyInstance } from 'fastify';
import { librariesRoutes } from './libraries.routes.js';
import { libraryVisitsRoutes, type LibraryVisitsOptions } from './library-visits.routes.js';
import { userArchiveRoutes } from './user-archive.routes.js';

/** Every route of the teacher libraries feature (docs/libraries-api.md). */
export async function librariesPlugin(app: FastifyInstance, options: LibraryVisitsOptions): Promise<void> {
  await app.register(librariesRoutes);
  await app.register(libraryVisitsRoutes, { issueSignInToken: options.issueSignInToken });
  await app.register(userArchiveRoutes);
}
