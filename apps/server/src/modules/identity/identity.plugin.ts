import fp from 'fastify-plugin';
import { createAuth, migrateAuth, type Auth, type AuthDependencies } from './auth.js';
import { registerActorHook, registerCsrfHook } from './identity.hooks.js';
import { identityRoutes, type SignInListener } from './identity.routes.js';
import { trustedOrigins } from './origins.js';
import { productAppOrigins, registerProductAppCors } from './app-origins.js';
import { configureTwoStepPolicy } from '../access/session-user.js';
import { configurePasswordHashing, passwordHashingSettings } from './password.js';

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
export interface IdentityPluginOptions {
  /** What other modules do after an account is created, changed or signed in with (app.ts wires it). */
  onAccountUsed?: AuthDependencies['onAccountUsed'];
  /** What other modules do right after a sign-in made a session (two-step: a trusted browser, or a second step to ask for). */
  onSignIn?: SignInListener;
}

export const identityPlugin = fp<IdentityPluginOptions>(
  async (app, options) => {
    configurePasswordHashing(passwordHashingSettings(app.env));
    configureTwoStepPolicy({ providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN, providerStaffRequired: app.env.PROVIDER_STAFF_TWO_STEP === 'required' });
    const auth = createAuth({
      env: app.env,
      db: app.db,
      sendMail: async (mail) => {
        await app.mail.send(mail);
      },
      onAccountUsed: options.onAccountUsed,
    });
    await migrateAuth(auth);
    app.decorate('auth', auth);
    const appOrigins = productAppOrigins(app.env);
    await registerProductAppCors(app, appOrigins);
    registerCsrfHook(app, trustedOrigins(app.env), appOrigins);
    // createAuth has refused to start without a secret.
    registerActorHook(app, { db: app.db, secret: app.env.AUTH_SECRET ?? '', providerDomain: app.env.PROVIDER_EMAIL_DOMAIN });
    await app.register(identityRoutes, { auth, onSignIn: options.onSignIn });
  },
  { name: 'identity' },
);
