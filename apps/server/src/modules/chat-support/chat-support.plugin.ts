import type { ServerModule } from '../../plugins/server-module.js';
import { chatSupportRoutes } from './chat-support.routes.js';

/** The chat-support widget's identity hash; its configuration and CSP sources are in chat-support.config.ts. */
export const chatSupportModule: ServerModule = { name: 'chat-support', plugin: chatSupportRoutes };
