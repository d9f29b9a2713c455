import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { apiIdentityRoutes } from './api-identity.routes.js';
import { authContractsRoutes } from './auth-contracts.routes.js';
import { resetPasswordRoutes } from './reset-password.routes.js';

/** Spec §7 sign-in contracts under /auth, /api and /payments; needs the identity plugin first. */
async function authContractsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(authContractsRoutes);
  await app.register(apiIdentityRoutes);
  await app.register(resetPasswordRoutes);
}

export const authContractsModule: ServerModule = { name: 'auth-contracts', plugin: authContractsPlugin };
