import type { ServerModule } from '../../plugins/server-module.js';
import { organisationsGraphql } from './organisations.graphql.js';

/** The organisation aggregate in the organisation service: the picker, getOrganisationById and the rename. */
export const organisationsModule: ServerModule = { name: 'organisations', graphql: organisationsGraphql };
