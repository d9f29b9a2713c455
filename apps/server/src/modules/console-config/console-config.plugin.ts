import type { ServerModule } from '../../plugins/server-module.js';
import { consoleConfigRoutes } from './console-config.routes.js';

/** The brand and links the console reads before anyone signs in. */
export const consoleConfigModule: ServerModule = { name: 'console-config', plugin: consoleConfigRoutes };
