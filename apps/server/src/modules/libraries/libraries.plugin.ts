import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { librariesRoutes } from './libraries.routes.js';
import { markProviderStaffByDomain } from './org-membership.repository.js';
import { libraryVisitsRoutes } from './library-visits.routes.js';
import { userArchiveRoutes } from './user-archive.routes.js';

/** Every route of the teacher libraries feature (docs/libraries-api.md). */
async function librariesPlugin(app: FastifyInstance): Promise<void> {
  await app.register(librariesRoutes);
  await app.register(libraryVisitsRoutes);
  await app.register(userArchiveRoutes);
  // Staff an earlier version made members by a visit are no teachers of the school.
  app.addHook('onReady', async () => {
    const marked = await markProviderStaffByDomain(app.db, app.env.PROVIDER_EMAIL_DOMAIN);
    if (marked > 0) app.log.info({ marked }, 'provider staff members marked');
  });
}

export const librariesModule: ServerModule = { name: 'libraries', plugin: librariesPlugin };
