import type { FastifyPluginAsync } from 'fastify';
import type { GraphqlModule } from '../modules/graphql/graphql.context.js';

/**
 * What one feature module adds to the server, exported by its `<module>.plugin.ts` and registered by
 * app.ts: its REST routes (with their hooks and jobs) and its share of the organisation service's GraphQL schema.
 */
export interface ServerModule {
  name: string;
  /** Routes, hooks, decorations and jobs; registered in the order app.ts lists the modules. */
  plugin?: FastifyPluginAsync;
  /** SDL extending Query / Mutation, and its resolvers (merged by the graphql module). */
  graphql?: GraphqlModule;
}
