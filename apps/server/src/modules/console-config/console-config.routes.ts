import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { consoleConfigSchema } from '@quire/core';
import { consoleConfig } from './console-config.service.js';

/** Public: the console reads its brand and links before anyone signs in. */
export const consoleConfigRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = consoleConfig(app.env);
  app.get(
    '/api/console-config',
    {
      schema: {
        tags: ['console'],
        summary: 'Brand and link configuration of the console',
        response: { 200: consoleConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return config;
    },
  );
};
