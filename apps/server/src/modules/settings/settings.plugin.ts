import type { FastifyInstance } from 'fastify';
import { settingsRoutes } from './settings.routes.js';

/** Organisation settings: apps and image search (docs/settings.md). GraphQL: settings.graphql.ts via the registry. */
export async function settingsPlugin(app: FastifyInstance): Promise<void> {
  await app.register(settingsRoutes);
}
