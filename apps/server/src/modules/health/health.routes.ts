import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { livenessSchema, readinessSchema } from '@quire/core';
import { sql } from 'kysely';

/** Liveness (process up) and readiness (database answers) for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { tags: ['health'], summary: 'The process is up', response: { 200: livenessSchema } } }, async () => ({ status: 'ok' as const }));
  app.get(
    '/readyz',
    { schema: { tags: ['health'], summary: 'The database answers and the copy is not stopping (503 when either fails)', response: { 200: readinessSchema, 503: readinessSchema } } },
    async (_request, reply) => {
      // A stopping copy answers "not ready" first, so the load balancer sends new requests elsewhere (plugins/lifecycle.ts).
      if (app.lifecycle.draining) return reply.status(503).send({ status: 'draining', database: app.database.kind });
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' as const, database: app.database.kind };
      } catch {
        return reply.status(503).send({ status: 'unavailable', database: app.database.kind });
      }
    },
  );
};
