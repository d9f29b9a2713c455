import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Env } from './env.js';
import type { Database } from './db/client.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { healthRoutes } from './modules/health/health.routes.js';

export interface AppOptions {
  env: Env;
  database: Database;
  /** Fastify logger options; tests pass false. */
  logger?: FastifyServerOptions['logger'];
}

declare module 'fastify' {
  interface FastifyInstance {
    env: Env;
    database: Database;
    db: Database['db'];
  }
}

/**
 * Builds the whole Quire server (console + every API of spec §7) without listening,
 * so tests build exactly what production runs. server.ts starts it.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: true,
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('env', options.env);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);

  await app.register(errorHandlerPlugin);
  await app.register(healthRoutes);

  return app;
}
