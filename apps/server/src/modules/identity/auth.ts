import { betterAuth } from 'better-auth';
import { createAuthMiddleware, APIError } from 'better-auth/api';
import { getMigrations } from 'better-auth/db/migration';
import { genericOAuth, jwt, oneTimeToken } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import { authMessages, signInDomainError, isDistrictSsoEmail, isValidEmail, SESSION_COOKIE_NAME, SESSION_MAX_AGE_SECONDS, validationMessages, type ErrorCode } from '@quire/core';
import type { DB } from '../../db/types.js';
import { publicUrl, type Env } from '../../env.js';
import { hashPassword, verifyPassword } from './password.js';
import { organisationRoles } from '../access/org-access.js';
import { findUserById } from './identity.repository.js';
import { oidcProviderConfigs } from './oidc-providers.js';
import { hashToken } from './tokens.js';
import { trustedOrigins } from './origins.js';

/** A session is extended (and its cookie re-sent) when it is used this long after the last extension. */
const SESSION_UPDATE_AGE_SECONDS = 600;
/** E-mail verification links stay valid one day. */
export const EMAIL_VERIFICATION_SECONDS = 24 * 3600;
/** Password reset links stay valid one hour. */
const PASSWORD_RESET_SECONDS = 3600;
/** The console page e-mail verification links lead back to (spec §2). */
export const VERIFY_EMAIL_PAGE = '/sign-in/verify-email';
/** The identity provider's routes that take an e-mail address in their body. */
const ADDRESS_PATHS = new Set(['/sign-in/email', '/sign-up/email', '/request-password-reset', '/forget-password', '/send-verification-email', '/change-email']);
/** Custom (one-time) tokens live three minutes. */
export const CUSTOM_TOKEN_MINUTES = 3;

interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** An account of the identity provider, as listeners of its changes see it. */
interface AuthAccount {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

export interface AuthDependencies {
  env: Env;
  db: Kysely<DB>;
  sendMail(mail: OutgoingMail): Promise<void>;
  /**
   * Runs after an account is created or changed and after every sign-in, whatever the sign-in method.
   * The composition root (app.ts) passes what other modules do then (members: pending teachers sign up).
   */
  onAccountUsed?(account: AuthAccount): Promise<unknown>;
}


export function authDomainRules(env: Env) {
  const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
  return { districtSsoDomains: list(env.DISTRICT_SSO_DOMAINS), cityGovernmentSuffixes: list(env.CITY_GOVERNMENT_SUFFIXES) };
}

/** Better Auth, configured as Quire's identity provider (docs/identity.md). */
export function createAuth({ env, db, sendMail, onAccountUsed = async () => undefined }: AuthDependencies) {
  // No constant fallback in any mode: server.ts resolves AUTH_SECRET (configured, or generated and kept in DATA_DIR).
  if (!env.AUTH_SECRET) throw new Error('AUTH_SECRET is not set: the identity provider needs a secret (see resolveAuthSecret)');
  const origin = publicUrl(env);
  const rules = authDomainRules(env);
  const providers = oidcProviderConfigs(env);
  return betterAuth({
    appName: env.PRODUCT_NAME,
    baseURL: origin,
    basePath: '/identity',
    secret: env.AUTH_SECRET,
    database: { db, type: 'postgres' },
    trustedOrigins: trustedOrigins(env),
    // @fastify/rate-limit guards the sensitive routes (identity.routes.ts); one limiter, one answer.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: { disabled: env.NODE_ENV === 'test' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      autoSignIn: true,
      requireEmailVerification: false,
      resetPasswordTokenExpiresIn: PASSWORD_RESET_SECONDS,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: ({ hash, password }) => verifyPassword(hash, password) },
      sendResetPassword: async ({ user, token }) => {
        const url = `${origin}/auth/reset-password?token=${encodeURIComponent(token)}`;
        await sendMail({
          to: user.email,
          subject: `Reset your ${env.PRODUCT_NAME} password`,
          text: `Hello ${user.name},\n\nFollow this link within one hour to choose a new password:\n${url}\n\nIf you did not ask for this, ignore this e-mail.`,
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: EMAIL_VERIFICATION_SECONDS,
      sendVerificationEmail: async ({ user, token }) => {
        // Our own callback, whatever route triggered the mail: the verify page polls and moves on.
        const url = `${origin}/identity/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(VERIFY_EMAIL_PAGE)}`;
        await sendMail({
          to: user.email,
          subject: 'Verify your email address',
          text: `Hello ${user.name},\n\nFollow this link to verify your email address for ${env.PRODUCT_NAME}:\n${url}\n\nThe link works once and expires in 24 hours.`,
        });
      },
    },
    session: { expiresIn: SESSION_MAX_AGE_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS, cookieCache: { enabled: false } },
    // One account per e-mail, as the spec's provider lookup assumes: a provider sign-in for an e-mail
    // registered with another provider is refused (account_not_linked) rather than silently linked.
    account: { accountLinking: { enabled: false } },
    advanced: {
      useSecureCookies: false,
      cookies: { session_token: { name: SESSION_COOKIE_NAME, attributes: { secure: true, httpOnly: true, sameSite: 'lax', path: '/' } } },
      defaultCookieAttributes: { secure: true, httpOnly: true, sameSite: 'lax', path: '/' },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    // A pending member signs up when its address has a verified account, by any sign-in method.
    databaseHooks: {
      user: {
        create: { after: async (user) => void (await onAccountUsed(user)) },
        update: { after: async (user) => void (await onAccountUsed(user)) },
      },
      session: {
        create: {
          after: async (session) => {
            const user = await findUserById(db, session.userId);
            if (user) await onAccountUsed(user);
          },
        },
      },
    },
    hooks: {
      // The console's domain rules apply to the SDK's own e-mail routes too (spec §5).
      before: createAuthMiddleware(async (ctx) => {
        const email = typeof ctx.body?.email === 'string' ? ctx.body.email : '';
        // An address that cannot exist (the accounts LTI launches create hold one) is never signed up, signed in,
        // reset or verified by e-mail: such an account is reached by its platform's launches only (docs/lti.md).
        if (ADDRESS_PATHS.has(ctx.path) && email.trim() !== '' && !isValidEmail(email)) {
          throw new APIError('BAD_REQUEST', { code: 'auth/invalid-email' satisfies ErrorCode, message: validationMessages.emailInvalid });
        }
        if (ctx.path !== '/sign-in/email' && ctx.path !== '/sign-up/email') return;
        const refusal =
          ctx.path === '/sign-in/email'
            ? signInDomainError(email, rules)
            : isDistrictSsoEmail(email, rules.districtSsoDomains)
              ? authMessages.districtSso
              : null;
        if (refusal) throw new APIError('BAD_REQUEST', { code: 'auth/domain-refused' satisfies ErrorCode, message: refusal });
      }),
    },
    plugins: [
      jwt({
        disableSettingJwtHeader: true,
        jwks: { keyPairConfig: { alg: 'EdDSA', crv: 'Ed25519' } },
        jwt: {
          issuer: origin,
          audience: origin,
          expirationTime: '1h',
          definePayload: async ({ user }) => ({
            email: user.email,
            name: user.name,
            picture: user.image ?? null,
            email_verified: user.emailVerified,
            // Unverified addresses prove nothing: no organisation roles until verified.
            bc_orgs: user.emailVerified ? await organisationRoles(db, { userId: user.id, email: user.email }) : {},
          }),
        },
      }),
      oneTimeToken({
        expiresIn: CUSTOM_TOKEN_MINUTES,
        storeToken: { type: 'custom-hasher', hash: async (token: string) => hashToken(token) },
      }),
      ...(providers.length ? [genericOAuth({ config: providers })] : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Adds the tables Better Auth's plugins need (jwks); migration 0001 made the core ones. */
export async function migrateAuth(auth: Auth): Promise<void> {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
}
