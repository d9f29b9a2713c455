import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authErrorCodeMessages } from '@quire/core';
import { AppError } from '../../errors.js';
import { databaseRateLimitStore } from './rate-limit.store.js';

/** The e-mail a request is about (params, form or JSON body), lower-cased; '' when none. */
function requestEmail(request: FastifyRequest): string {
  const params = request.params as Record<string, unknown> | undefined;
  let body: unknown = request.body;
  if (Buffer.isBuffer(body)) {
    try {
      body = JSON.parse(body.toString('utf8')) as unknown;
    } catch {
      body = undefined;
    }
  }
  const fromBody = body && typeof body === 'object' ? (body as Record<string, unknown>).email : undefined;
  const email = typeof params?.email === 'string' ? params.email : typeof fromBody === 'string' ? fromBody : '';
  return email.trim().toLowerCase();
}

/**
 * Registers @fastify/rate-limit in the calling (encapsulated) scope, for routes that opt in with
 * `config: { rateLimit: authRateLimit(n) }`. A refusal is 429 `auth/too-many-requests` (spec §8).
 * The counters are kept in the database, so every copy of the server counts the same requests.
 */
export async function registerAuthRateLimit(instance: FastifyInstance): Promise<void> {
  await instance.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(instance.db),
    // Runs after body parsing, so the key can name the e-mail being tried.
    hook: 'preHandler',
    errorResponseBuilder: () =>
      new AppError(429, 'auth/too-many-requests', authErrorCodeMessages['auth/too-many-requests']),
  });
}

/** At most `max` requests a minute per client address and e-mail. */
export function authRateLimit(max: number) {
  return { max, timeWindow: 60_000, keyGenerator: (request: FastifyRequest) => `${request.ip}|${requestEmail(request)}` };
}
