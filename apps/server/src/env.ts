import { z } from 'zod';

/**
 * Every setting Quire reads from the environment, checked once at start.
 * A bad value stops the start with one line per problem (see README "Configuration").
 */
const bool = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1');

const int = (min: number, max: number) =>
  z.coerce.number({ error: `must be a whole number from ${min} to ${max}` }).int(`must be a whole number from ${min} to ${max}`).min(min, `must be a whole number from ${min} to ${max}`).max(max, `must be a whole number from ${min} to ${max}`);

const httpUrl = (example: string) =>
  z.string().refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, `must be an http(s) URL, e.g. ${example}`);

const email = (example: string) => z.string().email(`must be an e-mail address, e.g. ${example}`);

const postgresUrl = z.string().refine((v) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
  } catch {
    return false;
  }
}, 'must be a postgres:// or postgresql:// URL, e.g. postgres://user:pass@localhost:5432/quire');

const smtpUrl = z.string().refine((v) => {
  try {
    return ['smtp:', 'smtps:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}, 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.org:587');

/** TRUST_PROXY: a hop count, or a list of addresses / CIDR ranges / proxy-addr names; never "trust everyone". */
const trustProxySetting = z.string().refine((v) => {
  const value = v.trim();
  if (/^\d+$/.test(value)) return Number(value) >= 1 && Number(value) <= 10;
  return value.split(',').map((s) => s.trim()).filter(Boolean).every((entry) =>
    ['loopback', 'linklocal', 'uniquelocal'].includes(entry) || /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry),
  );
}, "must be proxy addresses or CIDR ranges (comma-separated), 'loopback', or a number of hops from 1 to 10");

/** @internal */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  /** TCP port the console and APIs listen on. */
  PORT: int(0, 65535).default(3000),
  /** Interface to bind. */
  HOST: z.string().default('0.0.0.0'),
  /** Public origin of the console, used in links inside e-mails and OIDC redirects. Defaults to http://localhost:PORT. */
  PUBLIC_URL: httpUrl('https://quire.example-school.org').optional(),
  /** PostgreSQL server; when unset Quire uses embedded PGlite under DATA_DIR. */
  DATABASE_URL: postgresUrl.optional(),
  /** Folder for the embedded database (and other local state). */
  DATA_DIR: z.string().default('./data'),
  /** Pool size for PostgreSQL. */
  DATABASE_POOL_SIZE: int(1, 200).default(10),
  /**
   * How long a request waits for a free PostgreSQL connection (milliseconds) before it is answered 503 'server_busy'
   * with a Retry-After.
   */
  DATABASE_POOL_TIMEOUT_MS: int(100, 60_000).default(5000),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be one of fatal, error, warn, info, debug, trace, silent' })
    .default('info'),
  /** Secret for signing sessions, tokens and URLs. Required in production (32+ characters). */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Key that encrypts LTI consumer secrets at rest (AES-256-GCM): 32 random bytes as 64 hex characters or
   * base64 (`openssl rand -base64 32`). Required in production; elsewhere one is generated under DATA_DIR.
   */
  LTI_ENCRYPTION_KEY: z
    .string()
    .refine((v) => /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes as 64 hex characters or base64, e.g. from `openssl rand -base64 32`')
    .optional(),
  /**
   * New accounts one set of LTI credentials may create (docs/lti.md): a burst of LTI_NEW_USERS_BURST at once, then
   * LTI_NEW_USERS_PER_HOUR (a class of 30 launching at once fits many times over; a script creating thousands does not).
   */
  LTI_NEW_USERS_BURST: int(1, 100_000).default(150),
  LTI_NEW_USERS_PER_HOUR: int(1, 1_000_000).default(600),
  /** SMTP server for outgoing mail, e.g. smtp://user:pass@mail.example.org:587. Unset: mail goes to the outbox table and the log. */
  SMTP_URL: smtpUrl.optional(),
  /** Sender of every mail. */
  MAIL_FROM: z.string().default('Quire <no-reply@quire.local>'),
  /** Seed the demo district into an empty database on start (never in production). */
  DEMO_SEED: bool.default(true),
  DEMO_ADMIN_EMAIL: email('admin@demo.quire.school').default('admin@demo.quire.school'),
  DEMO_ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').default('quire-demo-1'),
  /** Teachers in the largest demo organisation. */
  DEMO_TEACHERS: int(0, 1_000_000).default(250),
  /** Built console to serve; unset means apps/web/dist. */
  WEB_DIST_DIR: z.string().optional(),
  // Brand and outside links (spec: hidden names are configuration). Served to the console by GET /api/console-config.
  /** The product's name, shown in titles and texts ("{product}"). */
  PRODUCT_NAME: z.string().min(1, 'must not be empty').default('Quire'),
  /** E-mail domain of the provider's staff: extra options, and never addable as admins. */
  PROVIDER_EMAIL_DOMAIN: z.string().min(1, 'must not be empty').default('quire.app'),
  /**
   * 'required' (default): provider staff must use 2-step verification to act on any organisation. 'off' is for
   * development and test runs only; production refuses to start with it.
   */
  PROVIDER_STAFF_TWO_STEP: z.enum(['required', 'off'], { error: 'must be required or off' }).default('required'),
  /**
   * The WebAuthn relying-party id passkeys are made for: PUBLIC_URL's host name (default) or a domain it belongs to
   * (e.g. example-school.org for https://quire.example-school.org, so passkeys keep working if the console moves to
   * another host of that domain). Passkeys are checked against PUBLIC_URL's origin only.
   */
  PASSKEY_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as example-school.org')
    .optional(),
  /** Where "contact sales" links point. */
  SALES_EMAIL: email('sales@quire.app').default('sales@quire.app'),
  /** 'For Admins' help link in the navigation. */
  HELP_URL: httpUrl('https://help.quire.app/admins').default('https://help.quire.app/admins'),
  /** Community group ('Join the discussion'). */
  COMMUNITY_URL: httpUrl('https://community.quire.app').default('https://community.quire.app'),
  /** Staff-training presentation template ('Get your copy here'). */
  STAFF_TRAINING_URL: httpUrl('https://help.quire.app/staff-training').default('https://help.quire.app/staff-training'),
  /** Getting-started guide for the web app ('Learn more'). */
  GETTING_STARTED_URL: httpUrl('https://help.quire.app/getting-started').default('https://help.quire.app/getting-started'),
  /** Terms of service, linked from the sign-in page. */
  TERMS_URL: httpUrl('https://quire.app/terms').default('https://quire.app/terms'),
  /** Privacy policy. */
  PRIVACY_URL: httpUrl('https://quire.app/privacy').default('https://quire.app/privacy'),
  /** The product's web app; a library visit opens it. */
  APP_URL: httpUrl('https://app.quire.app').default('https://app.quire.app'),
  /** Reader site where featured example books open. */
  READER_URL: httpUrl('https://read.quire.app').default('https://read.quire.app'),
  /** The fixed library on the reader site that holds the featured example books. */
  READER_LIBRARY_ID: z.string().min(1, 'must not be empty').default('featured'),
  /** Comma-separated e-mail domains whose users must sign in through district SSO. */
  DISTRICT_SSO_DOMAINS: z.string().default('schools.example-district.org,students.example-district.org'),
  /**
   * The displayName of the SCIM group whose members are the organisation's admins (compared without case); unset means
   * "{PRODUCT_NAME} Admins". Every other group is kept and grants nothing.
   */
  SCIM_ADMINS_GROUP: z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters').optional(),
  /**
   * The displayName of the SCIM group whose members are the organisation's library managers (compared without case);
   * unset means "{PRODUCT_NAME} Library Managers".
   */
  SCIM_LIBRARY_MANAGERS_GROUP: z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters').optional(),
  /** Requests one SCIM token may make per minute (counted in the database, so every server copy counts them). */
  SCIM_REQUESTS_PER_MINUTE: int(1, 1_000_000).default(1200),
  /** Comma-separated suffixes of city-government domains that may not use e-mail and password. */
  CITY_GOVERNMENT_SUFFIXES: z.string().default('.cityofexample.gov'),
  /** Chat-support widget provider ("{chat-support}" in paths): 'none' (no widget, no request) or 'intercom'. */
  CHAT_SUPPORT_PROVIDER: z.string().min(1, 'must not be empty').default('none'),
  /** Secret for the chat-support identity-verification hash. */
  CHAT_SUPPORT_SECRET: z.string().optional(),
  /** The chat-support provider's workspace id (Intercom: the app_id). Required when a provider is set. */
  CHAT_SUPPORT_APP_ID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, - or _').optional(),
  /** Where the widget script loads from; unset: the provider's own (Intercom: https://widget.intercom.io/widget/APP_ID). The CSP allows its origin. */
  CHAT_SUPPORT_SCRIPT_URL: httpUrl('https://widget.intercom.io/widget/abc123').optional(),
  /** Teacher Resources: base of the grade-level and subject resource pages (each card adds its own path). */
  RESOURCES_URL: httpUrl('https://help.quire.app/resources').default('https://help.quire.app/resources'),
  /** Hours between rebuilds of an organisation's student-portfolio export. */
  PORTFOLIO_EXPORT_INTERVAL_HOURS: int(1, 168).default(24),
  /** Seconds a student-portfolio download link stays valid (the export call's refreshIn). */
  PORTFOLIO_LINK_TTL_SECONDS: int(10, 86400).default(900),
  /** Extra origins (comma-separated) allowed to send state-changing requests, besides PUBLIC_URL's origin. */
  TRUSTED_ORIGINS: z.string().default(''),
  /**
   * Other origins of the product's own apps (comma-separated, e.g. https://books.example.org), besides APP_URL's:
   * with APP_URL's they may make the few calls the app needs after a launch or a library visit (the single-use
   * token's exchange, the session, sign-out, the user's apps), with CORS naming them. Nothing else.
   */
  PRODUCT_APP_ORIGINS: z
    .string()
    .refine(
      (v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .every((entry) => {
            try {
              const u = new URL(entry);
              return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === entry.replace(/\/$/, '');
            } catch {
              return false;
            }
          }),
      'must be comma-separated origins (scheme, host and port only), e.g. https://books.example.org',
    )
    .default(''),
  /**
   * Reverse proxies whose X-Forwarded-For / -Proto / -Host headers are believed: comma-separated addresses or
   * CIDR ranges (e.g. 10.0.0.5,172.16.0.0/12), 'loopback', or a number of proxy hops. Unset: none.
   */
  TRUST_PROXY: trustProxySetting.optional(),
  /**
   * Seconds a stopping copy (SIGTERM) keeps serving with /readyz answering 503 before it stops listening, so a load
   * balancer's health check takes it out of rotation first (docs/scale-out.md). 0: stop listening at once.
   */
  SHUTDOWN_DRAIN_SECONDS: int(0, 300).default(0),
  /** Password hashes computed at once (worker threads, 128 MiB each). Unset: half the cores, 1 to 4. */
  PASSWORD_HASH_WORKERS: int(1, 32).optional(),
  /** Password hashes allowed to wait; sign-ins beyond it are answered 503. Unset: 8 per worker. */
  PASSWORD_HASH_QUEUE: int(0, 10_000).optional(),
  /**
   * scrypt's cost for new password hashes, as log2 of N: 17 (N = 131,072, OWASP's recommendation, 128 MiB and about
   * half a second of one core a hash). Lower values are for test runs only (the suites sign in hundreds of times) and
   * are refused in production; each stored hash keeps the cost it was made with.
   */
  PASSWORD_SCRYPT_LOG2_N: int(10, 20).default(17),
  /** Google sign-in (OpenID Connect): issuer URL, e.g. https://accounts.google.com. Offered only when issuer, id and secret are set. */
  GOOGLE_OIDC_ISSUER: z.string().url().optional(),
  GOOGLE_OIDC_CLIENT_ID: z.string().optional(),
  GOOGLE_OIDC_CLIENT_SECRET: z.string().optional(),
  /** Office 365 sign-in (OpenID Connect): issuer, e.g. https://login.microsoftonline.com/<tenant>/v2.0. Redirect URI: PUBLIC_URL/sign-in/office-365. */
  OFFICE365_OIDC_ISSUER: z.string().url().optional(),
  OFFICE365_OIDC_CLIENT_ID: z.string().optional(),
  OFFICE365_OIDC_CLIENT_SECRET: z.string().optional(),
  /** Key the product sends (Authorization: Bearer …) to report session events to POST /analytics/events. Unset: intake is off. */
  ANALYTICS_INGEST_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Seconds an analytics session's signed URLs stay valid (its refreshIn). */
  ANALYTICS_URL_TTL_SECONDS: int(60, 86_400).default(3600),
  /**
   * Seconds a process keeps an analytics answer (a tile's count, a chart's series) for the next request asking the
   * same of the same organisation; events the process takes in drop their organisation's answers at once. 0: off.
   */
  ANALYTICS_CACHE_SECONDS: int(0, 3600).default(30),
  /**
   * Bearer token a Prometheus scraper sends to GET /metrics (docs/operations.md). With METRICS_PORT unset, /metrics is
   * served on PORT and needs it; with neither set, /metrics does not exist (404).
   */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** A second listener that serves only GET /metrics, on METRICS_HOST; PORT then has no /metrics. */
  METRICS_PORT: int(1, 65535).optional(),
  /** Interface of the METRICS_PORT listener; keep it internal (loopback or a private network). */
  METRICS_HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
});

export type Env = z.infer<typeof envSchema>;

/** OWASP's recommended scrypt cost (log2 of N), the default of PASSWORD_SCRYPT_LOG2_N. */
export const RECOMMENDED_SCRYPT_LOG2_N = 17;

/** Reads and checks the environment; throws one ConfigError with one line per problem. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
  if (parsed.success && parsed.data.NODE_ENV === 'production' && !parsed.data.AUTH_SECRET) {
    problems.push('AUTH_SECRET is required in production (at least 32 characters)');
  }
  if (parsed.success && parsed.data.NODE_ENV === 'production' && !parsed.data.LTI_ENCRYPTION_KEY) {
    problems.push('LTI_ENCRYPTION_KEY is required in production (32 bytes, e.g. `openssl rand -base64 32`)');
  }
  if (parsed.success && parsed.data.NODE_ENV === 'production' && parsed.data.PASSWORD_SCRYPT_LOG2_N < RECOMMENDED_SCRYPT_LOG2_N) {
    problems.push(`PASSWORD_SCRYPT_LOG2_N below ${RECOMMENDED_SCRYPT_LOG2_N} is for test runs only: it would make every new password hash cheaper to guess`);
  }
  if (parsed.success && parsed.data.NODE_ENV === 'production' && parsed.data.PROVIDER_STAFF_TWO_STEP === 'off') {
    problems.push('PROVIDER_STAFF_TWO_STEP=off is for development only: provider staff act on every organisation and must use 2-step verification');
  }
  if (parsed.success && parsed.data.PASSKEY_RP_ID) {
    const host = new URL(publicUrl(parsed.data)).hostname.toLowerCase();
    const rpId = parsed.data.PASSKEY_RP_ID.toLowerCase();
    if (host !== rpId && !host.endsWith(`.${rpId}`)) problems.push(`PASSKEY_RP_ID must be PUBLIC_URL's host name (${host}) or a domain it belongs to`);
  }
  if (parsed.success && parsed.data.CHAT_SUPPORT_PROVIDER.toLowerCase() !== 'none' && !parsed.data.CHAT_SUPPORT_APP_ID) {
    problems.push('CHAT_SUPPORT_APP_ID is required when CHAT_SUPPORT_PROVIDER is set');
  }
  if (parsed.success && parsed.data.METRICS_PORT !== undefined && parsed.data.METRICS_PORT === parsed.data.PORT) {
    problems.push('METRICS_PORT must differ from PORT (it is a second listener for /metrics only)');
  }
  if (!parsed.success || problems.length) {
    throw new ConfigError(problems.map((p) => `Invalid configuration: ${p}`).join('\n'));
  }
  return parsed.data;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The origin used for links in mail and redirects. */
export function publicUrl(env: Env): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
}

/** The WebAuthn relying party passkeys belong to: its id (a host name) and the one origin their signatures may name. */
export function passkeyRelyingParty(env: Env): { rpId: string; origin: string } {
  const url = new URL(publicUrl(env));
  return { rpId: (env.PASSKEY_RP_ID ?? url.hostname).toLowerCase(), origin: url.origin };
}

/** A comma-separated setting as a clean, lower-case list. */
export function listSetting(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

/** Fastify's trustProxy option from TRUST_PROXY: false (the client's own address) when unset. */
export function trustProxyOption(env: Pick<Env, 'TRUST_PROXY'>): false | string | ((address: string, hop: number) => boolean) {
  const value = env.TRUST_PROXY?.trim();
  if (!value) return false;
  if (!/^\d+$/.test(value)) return value;
  const hops = Number(value);
  return (_address, hop) => hop < hops;
}
