import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { trustProxyOption, type Env } from './env.js';
import type { Database } from './db/client.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { loggerOptions } from './plugins/logger.js';
import { securityPlugin } from './plugins/security.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { apiDocsPlugin } from './plugins/api-docs.js';
import { backgroundPlugin } from './plugins/background.js';
import { registerWebConsole } from './plugins/web-console.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { consoleConfigRoutes } from './modules/console-config/console-config.routes.js';
import { identityPlugin } from './modules/identity/identity.plugin.js';
import { CUSTOM_TOKEN_MINUTES } from './modules/identity/auth.js';
import { issueCustomTokenForUser } from './modules/identity/custom-token.js';
import { signUpPendingMembers } from './modules/members/member-sign-up.service.js';
import { authContractsPlugin } from './modules/auth-contracts/auth-contracts.plugin.js';
import { graphqlPlugin } from './modules/graphql/graphql.plugin.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { teachersBulkRoutes } from './modules/members/teachers-bulk.routes.js';
import { convertStudentRoutes } from './modules/members/convert-student.routes.js';
import { licensesRoutes } from './modules/licenses/licenses.routes.js';
import { librariesPlugin } from './modules/libraries/libraries.plugin.js';
import { settingsPlugin } from './modules/settings/settings.plugin.js';
import { ltiPlugin } from './modules/lti/lti.plugin.js';
import { analyticsPlugin } from './modules/analytics/analytics.plugin.js';
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
    // Proxy headers only from the proxies TRUST_PROXY names (docs/security.md).
    trustProxy: trustProxyOption(options.env),
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
  // The console's deep links are answered by the not-found handler, after every API route had its chance.
  const consoleFallback = await registerWebConsole(app, options.env);
  // Before any API route, so every route (the identity provider's too) answers errors the same way.
  await app.register(errorHandlerPlugin, { notFoundFallback: consoleFallback });
  // Control characters are refused with 400 on every route (docs/security.md).
  await app.register(inputGuardPlugin);
  // Sets request.actor and the Origin / acting-user checks for every route registered after it.
  // A pending member signs up when its address has a verified account, by any sign-in method (members).
  await app.register(identityPlugin, { onAccountUsed: (account) => signUpPendingMembers(options.database.db, account) });

  await app.register(healthRoutes);
  await app.register(consoleConfigRoutes);
  await app.register(authContractsPlugin);
  await app.register(graphqlPlugin);
  await app.register(membersRoutes);
  await app.register(teachersBulkRoutes);
  await app.register(convertStudentRoutes);
  await app.register(licensesRoutes);
  // A library visit ends with the identity provider's single-use sign-in token, as an LTI launch does (spec §4).
  await app.register(librariesPlugin, {
    issueSignInToken: async (userId, client) => ({
      token: await issueCustomTokenForUser(app.auth, userId, client),
      expiresAt: new Date(Date.now() + CUSTOM_TOKEN_MINUTES * 60_000),
    }),
  });
  await app.register(settingsPlugin);
  await app.register(ltiPlugin);
  await app.register(analyticsPlugin);
  await app.register(portfoliosPlugin);
  await app.register(assetsPlugin);

  return app;
}
