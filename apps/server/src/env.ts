import { z } from 'zod';

/**
 * Every setting Quire reads from the environment, checked once at start.
 * A bad value stops the start with a list of what is wrong (see README "Configuration").
 */
const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const postgresUrl = z
  .string()
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'postgres:' || u.protocol === 'postgresql:';
    } catch {
      return false;
    }
  }, 'must be a postgres:// or postgresql:// URL, e.g. postgres://user:pass@localhost:5432/quire');

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** TCP port the console and APIs listen on. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Interface to bind. */
  HOST: z.string().default('0.0.0.0'),
  /** Public origin of the console, used in links inside e-mails and OIDC redirects. Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** PostgreSQL server; when unset Quire uses embedded PGlite under DATA_DIR. */
  DATABASE_URL: postgresUrl.optional(),
  /** Folder for the embedded database (and other local state). */
  DATA_DIR: z.string().default('./data'),
  /** Pool size for PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Secret for signing sessions, tokens and URLs. Required in production (32+ characters). */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** SMTP server for outgoing mail, e.g. smtp://user:pass@mail.example.org:587. Unset: mail goes to the outbox table and the log. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Quire <no-reply@quire.local>'),
  /** Seed the demo district into an empty database on start (never in production). */
  DEMO_SEED: bool.default(true),
  DEMO_ADMIN_EMAIL: z.string().email().default('admin@demo.quire.school'),
  DEMO_ADMIN_PASSWORD: z.string().min(6).default('quire-demo-1'),
  /** Teachers in the largest demo organisation. */
  DEMO_TEACHERS: z.coerce.number().int().min(0).max(1_000_000).default(250),
  /** Built console to serve; unset means apps/web/dist. */
  WEB_DIST_DIR: z.string().optional(),
  // Brand and outside links (spec: hidden names are configuration).
  PRODUCT_NAME: z.string().default('Quire'),
  PROVIDER_EMAIL_DOMAIN: z.string().default('quire.app'),
  SALES_EMAIL: z.string().email().default('sales@quire.app'),
  HELP_URL: z.string().url().default('https://help.quire.app/admins'),
  COMMUNITY_URL: z.string().url().default('https://community.quire.app'),
  APP_URL: z.string().url().default('https://app.quire.app'),
  READER_URL: z.string().url().default('https://read.quire.app'),
  /** Comma-separated e-mail domains whose users must sign in through district SSO. */
  DISTRICT_SSO_DOMAINS: z.string().default('schools.example-district.org,students.example-district.org'),
  /** Comma-separated suffixes of city-government domains that may not use e-mail and password. */
  CITY_GOVERNMENT_SUFFIXES: z.string().default('.cityofexample.gov'),
  CHAT_SUPPORT_PROVIDER: z.string().default('intercom'),
  CHAT_SUPPORT_SECRET: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

/** Reads and checks the environment; throws one error listing every problem. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (env.NODE_ENV === 'production' && !env.AUTH_SECRET) {
    throw new ConfigError('Invalid configuration:\n  AUTH_SECRET: required in production (at least 32 characters)');
  }
  return env;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The origin used for links in mail and redirects. */
export function publicUrl(env: Env): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
}
