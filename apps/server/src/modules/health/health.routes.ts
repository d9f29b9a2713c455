import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';

/** Liveness (process up) and readiness (database answers) for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await sql`select 1`.execute(app.db);
      return { status: 'ok', database: app.database.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: app.database.kind });
    }
  });
};
