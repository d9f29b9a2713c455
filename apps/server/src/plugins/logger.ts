import type { LoggerOptions } from 'pino';
import type { Env } from '../env.js';

const SECRET_FIELDS = ['password', 'newPassword', 'currentPassword', 'token', 'secret', 'idToken', 'accessToken', 'refreshToken', 'consumerSecret'];

/** Redacted paths: auth headers and cookies, and secret fields up to three levels deep in any logged object. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`]),
];

/** pino options for the server: level from LOG_LEVEL, secrets redacted, pretty output only on a terminal. */
export function loggerOptions(env: Env, isTty = Boolean(process.stdout.isTTY)): LoggerOptions {
  return {
    level: env.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    // Mail links carry single-use tokens in the query (verify-email, reset-password): never log them.
    serializers: { req: (req: { method?: string; url?: string; hostname?: string; ip?: string }) => ({ method: req.method, url: req.url?.replace(/([?&](?:token|code|state)=)[^&]*/gi, '$1[redacted]'), host: req.hostname, remoteAddress: req.ip }) },
    ...(isTty && env.NODE_ENV !== 'test'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } }
      : {}),
  };
}
