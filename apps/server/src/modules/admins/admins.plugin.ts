import type { ServerModule } from '../../plugins/server-module.js';
import { adminsGraphql } from './admins.graphql.js';

/** The Admin page's list, import and removal (docs/libraries-api.md, "Admins"). */
export const adminsModule: ServerModule = { name: 'admins', graphql: adminsGraphql };
