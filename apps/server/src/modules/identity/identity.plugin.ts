import fp from 'fastify-plugin';
import { createAuth, migrateAuth, type Auth } from './auth.js';
import { registerActorHook, registerCsrfHook } from './identity.hooks.js';
import { identityRoutes } from './identity.routes.js';
import { trustedOrigins } from './origins.js';
import { configurePasswordHashing } from './password.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Quire's identity provider (Better Auth). */
    auth: Auth;
  }
}

/**
 * Identity: Better Auth under /identity, request.actor from the session cookie, the acting-user
 * check and the Origin (CSRF) check for every route of the app.
 */
export const identityPlugin = fp(
  async (app) => {
    configurePasswordHashing({ workers: app.env.PASSWORD_HASH_WORKERS, maxQueue: app.env.PASSWORD_HASH_QUEUE });
    const auth = createAuth({ env: app.env, db: app.db, sendMail: async (mail) => {
        await app.mail.send(mail);
      } });
    await migrateAuth(auth);
    app.decorate('auth', auth);
    registerCsrfHook(app, trustedOrigins(app.env));
    registerActorHook(app, auth);
    await app.register(identityRoutes, { auth });
  },
  { name: 'identity' },
);
