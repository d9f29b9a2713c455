import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { trustProxyOption, type Env } from './env.js';
import type { Database } from './db/client.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { loggerOptions } from './plugins/logger.js';
import { requestId, requestIdPlugin } from './plugins/request-id.js';
import { securityPlugin } from './plugins/security.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { apiDocsPlugin } from './plugins/api-docs.js';
import { backgroundPlugin } from './plugins/background.js';
import { metricsPlugin } from './plugins/metrics.js';
import { lifecyclePlugin } from './plugins/lifecycle.js';
import { registerWebConsole } from './plugins/web-console.js';
import type { ServerModule } from './plugins/server-module.js';
import { identityPlugin } from './modules/identity/identity.plugin.js';
import { signUpPendingMembers } from './modules/members/member-sign-up.service.js';
import { graphqlPlugin } from './modules/graphql/graphql.plugin.js';
import { healthModule } from './modules/health/health.plugin.js';
import { consoleConfigModule } from './modules/console-config/console-config.plugin.js';
import { chatSupportModule } from './modules/chat-support/chat-support.plugin.js';
import { authContractsModule } from './modules/auth-contracts/auth-contracts.plugin.js';
import { organisationsModule } from './modules/organisations/organisations.plugin.js';
import { membersModule } from './modules/members/members.plugin.js';
import { licensesModule } from './modules/licenses/licenses.plugin.js';
import { teacherMailModule } from './modules/teacher-mail/teacher-mail.plugin.js';
import { adminsModule } from './modules/admins/admins.plugin.js';
import { librariesModule } from './modules/libraries/libraries.plugin.js';
import { settingsModule } from './modules/settings/settings.plugin.js';
import { ltiModule } from './modules/lti/lti.plugin.js';
import { isMisspelledLaunchPath } from './modules/lti/lti.routes.js';
import { LTI_LAUNCH_PATH } from '@quire/core';
import { scimModule } from './modules/scim/scim.plugin.js';
import { rosteringModule } from './modules/rostering/rostering.plugin.js';
import { analyticsModule } from './modules/analytics/analytics.plugin.js';
import { portfoliosModule } from './modules/portfolios/portfolios.plugin.js';
import { assetsModule } from './modules/assets/assets.plugin.js';
import { auditModule } from './modules/audit/audit.plugin.js';
import { twoStepModule } from './modules/two-step/two-step.plugin.js';
import { afterSignIn } from './modules/two-step/two-step.service.js';

/**
 * The feature modules, each registered through its `<module>.plugin.ts`: routes in this order, then their
 * shares of the GraphQL schema in one organisation service. Identity is registered before them (its hooks
 * resolve request.actor for every route).
 */
/** @internal */
export const featureModules: readonly ServerModule[] = [
  healthModule,
  consoleConfigModule,
  chatSupportModule,
  authContractsModule,
  organisationsModule,
  membersModule,
  licensesModule,
  teacherMailModule,
  adminsModule,
  librariesModule,
  settingsModule,
  ltiModule,
  scimModule,
  rosteringModule,
  analyticsModule,
  portfoliosModule,
  assetsModule,
  auditModule,
  twoStepModule,
];

/** Every module's share of the organisation service's GraphQL schema, in the modules' order. @internal */
export const graphqlModules = featureModules.flatMap((module) => (module.graphql ? [module.graphql] : []));

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
    /** Which module registered each route ('GET /api/teacher-resources' → 'assets'): docs/architecture.md's screen map is checked against it. */
    routeModules: ReadonlyMap<string, string>;
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
    // The proxy's X-Request-Id when it is sane, else a new one; every request log line carries it as reqId (docs/operations.md).
    requestIdHeader: false,
    genReqId: requestId,
    // The router is exact; an LTI launch posted to the launch URL spelled otherwise reaches the launch route,
    // which refuses it with a page naming the launch URL (request.originalUrl keeps what was asked).
    rewriteUrl: (raw) => {
      const url = raw.url ?? '/';
      const [path = '', query] = url.split('?');
      return raw.method === 'POST' && isMisspelledLaunchPath(path) ? `${LTI_LAUNCH_PATH}${query === undefined ? '' : `?${query}`}` : url;
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('env', options.env);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);

  await app.register(requestIdPlugin);
  // /readyz turns 503 while a stopping copy drains (plugins/lifecycle.ts).
  await app.register(lifecyclePlugin);
  await app.register(securityPlugin);
  await app.register(cookie);
  await app.register(apiDocsPlugin);
  await app.register(backgroundPlugin);
  // Off unless METRICS_TOKEN or METRICS_PORT is set; its hooks measure every route (docs/operations.md).
  await app.register(metricsPlugin);
  // The console's deep links are answered by the not-found handler, after every API route had its chance.
  const consoleFallback = await registerWebConsole(app, options.env);
  // Before any API route, so every route (the identity provider's too) answers errors the same way.
  await app.register(errorHandlerPlugin, { notFoundFallback: consoleFallback });
  // Control characters are refused with 400 on every route (docs/security.md).
  await app.register(inputGuardPlugin);
  // Sets request.actor and the Origin / acting-user checks for every route registered after it.
  // A pending member signs up when its address has a verified account, by any sign-in method (members).
  // Each route is credited to the module whose plugin registers it (onRoute runs while that plugin loads).
  const routeModules = new Map<string, string>();
  let registering: string | undefined;
  app.decorate('routeModules', routeModules);
  app.addHook('onRoute', (route) => {
    if (!registering) return;
    for (const method of [route.method].flat()) routeModules.set(`${method} ${route.url}`, registering);
  });
  registering = 'identity';
  await app.register(identityPlugin, {
    onAccountUsed: (account) => signUpPendingMembers(options.database.db, account),
    onSignIn: (sessionToken, cookies) => afterSignIn(options.database.db, sessionToken, cookies),
  });

  for (const module of featureModules) {
    registering = module.name;
    if (module.plugin) await app.register(module.plugin);
  }
  registering = 'graphql';
  await app.register(graphqlPlugin, { modules: graphqlModules });

  return app;
}
