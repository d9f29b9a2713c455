import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { livenessSchema, readinessSchema } from '@quire/core';
import { sql } from 'kysely';

/** Liveness (process up) and readiness (database answers) for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { tags: ['health'], summary: 'The process is up', response: { 200: livenessSchema } } }, async () => ({ status: 'ok' as const }));
  app.get(
    '/readyz',
    { schema: { tags: ['health'], summary: 'The database answers (503 when it does not)', response: { 200: readinessSchema, 503: readinessSchema } } },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' as const, database: app.database.kind };
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: app.database.kind });
      }
    },
  );
};
