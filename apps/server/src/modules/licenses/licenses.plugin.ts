import type { ServerModule } from '../../plugins/server-module.js';
import { licensesGraphql } from './licenses.graphql.js';
import { licensesRoutes } from './licenses.routes.js';

/** Assigning and removing licences (spec §7, docs/teachers-api.md). */
export const licensesModule: ServerModule = { name: 'licenses', plugin: licensesRoutes, graphql: licensesGraphql };
