import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Env } from './env.js';
import type { Database } from './db/client.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { loggerOptions } from './plugins/logger.js';
import { securityPlugin } from './plugins/security.js';
import { apiDocsPlugin } from './plugins/api-docs.js';
import { backgroundPlugin } from './plugins/background.js';
import { registerWebConsole } from './plugins/web-console.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { consoleConfigRoutes } from './modules/console-config/console-config.routes.js';
import { identityPlugin } from './modules/identity/identity.plugin.js';
import { authContractsPlugin } from './modules/auth-contracts/auth-contracts.plugin.js';
import { graphqlPlugin } from './modules/graphql/graphql.plugin.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { convertStudentRoutes } from './modules/members/convert-student.routes.js';
import { licensesRoutes } from './modules/licenses/licenses.routes.js';
import { librariesPlugin } from './modules/libraries/libraries.plugin.js';
import { portfoliosPlugin } from './modules/portfolios/portfolios.plugin.js';
import { assetsPlugin } from './modules/assets/assets.plugin.js';

export interface AppOptions {
  env: Env;
  database: Database;
  /** Fastify logger options; tests pass false. Unset: pino configured from env (plugins/logger.ts). */
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
    logger: options.logger ?? loggerOptions(options.env),
    trustProxy: true,
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('env', options.env);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);

  await app.register(securityPlugin);
  await app.register(cookie);
  await app.register(apiDocsPlugin);
  await app.register(backgroundPlugin);
  // Sets request.actor and the Origin / acting-user checks for every route registered after it.
  await app.register(identityPlugin);

  // The console's deep links are answered by the not-found handler, after every API route had its chance.
  const consoleFallback = await registerWebConsole(app, options.env);
  await app.register(errorHandlerPlugin, { notFoundFallback: consoleFallback });

  await app.register(healthRoutes);
  await app.register(consoleConfigRoutes);
  await app.register(authContractsPlugin);
  await app.register(graphqlPlugin);
  await app.register(membersRoutes);
  await app.register(convertStudentRoutes);
  await app.register(licensesRoutes);
  await app.register(librariesPlugin);
  await app.register(portfoliosPlugin);
  await app.register(assetsPlugin);

  return app;
}
