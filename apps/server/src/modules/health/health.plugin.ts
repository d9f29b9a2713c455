import type { ServerModule } from '../../plugins/server-module.js';
import { healthRoutes } from './health.routes.js';

/** Liveness and readiness probes. */
export const healthModule: ServerModule = { name: 'health', plugin: healthRoutes };
