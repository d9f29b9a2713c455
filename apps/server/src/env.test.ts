import { describe, expect, it } from 'vitest';
import { ConfigError, listSetting, loadEnv, passkeyRelyingParty, publicUrl } from './env.js';

function problems(source: Record<string, string>): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.split('\n');
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration', () => {
  it('starts with defaults when nothing is set', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 3000, NODE_ENV: 'development', PRODUCT_NAME: 'Quire', DEMO_SEED: true, LOG_LEVEL: 'info' });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('treats empty values as unset', () => {
    expect(loadEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    ['PORT', 'abc', 'PORT must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'PORT must be a whole number from 0 to 65535'],
    ['PORT', '3.5', 'PORT must be a whole number from 0 to 65535'],
    ['NODE_ENV', 'staging', 'NODE_ENV must be development, production or test'],
    ['DATABASE_URL', 'mysql://db/quire', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['DATABASE_URL', 'not a url', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    ['DATABASE_POOL_SIZE', '0', 'DATABASE_POOL_SIZE must be a whole number from 1 to 200'],
    ['DATABASE_POOL_TIMEOUT_MS', '50', 'DATABASE_POOL_TIMEOUT_MS must be a whole number from 100 to 60000'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    ['AUTH_SECRET', 'short', 'AUTH_SECRET must be at least 32 characters'],
    ['SMTP_URL', 'mail.example.org', 'SMTP_URL must be an smtp:// or smtps:// URL'],
    ['PUBLIC_URL', 'quire.example.org', 'PUBLIC_URL must be an http(s) URL'],
    ['DEMO_SEED', 'maybe', 'DEMO_SEED must be true or false'],
    ['DEMO_ADMIN_EMAIL', 'admin', 'DEMO_ADMIN_EMAIL must be an e-mail address'],
    ['DEMO_ADMIN_PASSWORD', '12345', 'DEMO_ADMIN_PASSWORD must be at least 6 characters'],
    ['DEMO_TEACHERS', '-1', 'DEMO_TEACHERS must be a whole number from 0 to 1000000'],
    ['SALES_EMAIL', 'sales', 'SALES_EMAIL must be an e-mail address'],
    ['HELP_URL', 'ftp://help.example.org', 'HELP_URL must be an http(s) URL'],
    ['APP_URL', 'app', 'APP_URL must be an http(s) URL'],
    ['READER_URL', 'reader', 'READER_URL must be an http(s) URL'],
    ['COMMUNITY_URL', 'x', 'COMMUNITY_URL must be an http(s) URL'],
    ['METRICS_TOKEN', 'short', 'METRICS_TOKEN must be at least 32 characters'],
    ['METRICS_PORT', '0', 'METRICS_PORT must be a whole number from 1 to 65535'],
    ['METRICS_PORT', '3000', 'METRICS_PORT must differ from PORT'],
  ])('refuses %s=%s with a line saying what to fix', (name, value, expected) => {
    const lines = problems({ [name]: value });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Invalid configuration: ${expected}`);
  });

  it('lists every problem at once, one line each', () => {
    const lines = problems({ PORT: 'x', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.startsWith('Invalid configuration: '))).toBe(true);
  });

  it('requires 2-step verification of provider staff in production; development may turn it off', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), LTI_ENCRYPTION_KEY: key };
    expect(loadEnv(production).PROVIDER_STAFF_TWO_STEP).toBe('required');
    expect(problems({ ...production, PROVIDER_STAFF_TWO_STEP: 'off' })).toEqual([
      'Invalid configuration: PROVIDER_STAFF_TWO_STEP=off is for development only: provider staff act on every organisation and must use 2-step verification',
    ]);
    expect(loadEnv({ NODE_ENV: 'development', PROVIDER_STAFF_TWO_STEP: 'off' }).PROVIDER_STAFF_TWO_STEP).toBe('off');
    expect(problems({ PROVIDER_STAFF_TWO_STEP: 'no' })).toHaveLength(1);
  });

  it("takes the passkeys' relying party from PUBLIC_URL, or a domain it belongs to, and refuses any other at start", () => {
    const url = 'https://quire.example-school.org';
    expect(passkeyRelyingParty(loadEnv({ PUBLIC_URL: url }))).toEqual({ rpId: 'quire.example-school.org', origin: url });
    expect(passkeyRelyingParty(loadEnv({ PUBLIC_URL: url, PASSKEY_RP_ID: 'Example-School.org' }))).toEqual({ rpId: 'example-school.org', origin: url });
    expect(problems({ PUBLIC_URL: url, PASSKEY_RP_ID: 'other-school.org' })).toEqual([
      "Invalid configuration: PASSKEY_RP_ID must be PUBLIC_URL's host name (quire.example-school.org) or a domain it belongs to",
    ]);
    // A suffix that is not a whole label does not count.
    expect(problems({ PUBLIC_URL: url, PASSKEY_RP_ID: 'ample-school.org' })).toHaveLength(1);
    expect(problems({ PUBLIC_URL: url, PASSKEY_RP_ID: 'https://example-school.org' })).toHaveLength(1);
  });

  it('requires AUTH_SECRET and LTI_ENCRYPTION_KEY in production', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([
      'Invalid configuration: AUTH_SECRET is required in production (at least 32 characters)',
      'Invalid configuration: LTI_ENCRYPTION_KEY is required in production (32 bytes, e.g. `openssl rand -base64 32`)',
    ]);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadEnv({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), LTI_ENCRYPTION_KEY: key }).NODE_ENV).toBe('production');
    expect(problems({ LTI_ENCRYPTION_KEY: 'short' })).toHaveLength(1);
  });

  it("hashes passwords at OWASP's scrypt cost unless a test run lowers it, and never lowers it in production", () => {
    expect(loadEnv({}).PASSWORD_SCRYPT_LOG2_N).toBe(17);
    expect(loadEnv({ NODE_ENV: 'test', PASSWORD_SCRYPT_LOG2_N: '10' }).PASSWORD_SCRYPT_LOG2_N).toBe(10);
    const key = Buffer.alloc(32, 7).toString('base64');
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), LTI_ENCRYPTION_KEY: key };
    expect(problems({ ...production, PASSWORD_SCRYPT_LOG2_N: '16' })).toEqual([
      'Invalid configuration: PASSWORD_SCRYPT_LOG2_N below 17 is for test runs only: it would make every new password hash cheaper to guess',
    ]);
    expect(loadEnv({ ...production, PASSWORD_SCRYPT_LOG2_N: '18' }).PASSWORD_SCRYPT_LOG2_N).toBe(18);
    expect(problems({ PASSWORD_SCRYPT_LOG2_N: '9' })).toHaveLength(1);
    expect(problems({ PASSWORD_SCRYPT_LOG2_N: '21' })).toHaveLength(1);
  });

  it('derives the public URL from PORT unless PUBLIC_URL is set', () => {
    expect(publicUrl(loadEnv({ PORT: '3105' }))).toBe('http://localhost:3105');
    expect(publicUrl(loadEnv({ PUBLIC_URL: 'https://quire.example.org/' }))).toBe('https://quire.example.org');
  });

  it('reads comma-separated lists trimmed and lower-case', () => {
    expect(listSetting(' A.org, b.ORG ,,')).toEqual(['a.org', 'b.org']);
  });
});
