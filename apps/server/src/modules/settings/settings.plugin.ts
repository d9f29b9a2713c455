import type { ServerModule } from '../../plugins/server-module.js';
import { settingsGraphql } from './settings.graphql.js';
import { settingsRoutes } from './settings.routes.js';

/** Organisation settings: apps and image search (docs/settings.md); REST and the updateSettings mutation. */
export const settingsModule: ServerModule = { name: 'settings', plugin: settingsRoutes, graphql: settingsGraphql };
