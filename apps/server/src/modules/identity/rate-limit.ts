import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onResponseHookHandler, preHandlerHookHandler } from 'fastify';
import { countRequest, refundRequest } from '../../db/rate-limit.repository.js';
import { appError } from '../../errors.js';
import { assertHashingCapacity } from './password.js';
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
    // Routes of forms without a password answer tooManyRequests (authRateLimit(n, 'other')).
    errorResponseBuilder: () => tooManyPasswordAttempts(),
  });
}

/** What a limited request was: a password try (the spec's text) or a form without a password. */
export type LimitKind = 'password' | 'other';

/** 429 on a password form: the spec's auth/too-many-requests text. */
const tooManyPasswordAttempts = () =>
  appError('auth/too-many-requests');
/** 429 on a form without a password (look-up, recovery, resend, registration). */
const tooManyRequests = () => appError('too_many_requests');

/** At most `max` requests a minute per client address and e-mail. */
export function authRateLimit(max: number, kind: LimitKind = 'password') {
  return {
    max,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => `${request.ip}|${requestEmail(request)}`,
    errorResponseBuilder: () => (kind === 'password' ? tooManyPasswordAttempts() : tooManyRequests()),
  };
}

/**
 * Budgets shared by every route of a kind, whatever the route (docs/security.md, "Sign-in limits"):
 * - failed password tries per account from any address (guessing one account from many addresses),
 *   and per address for any account (password spraying). Only failures count: a try is counted when it
 *   starts and given back when it succeeds, so concurrent tries cannot slip past the limit.
 * - look-ups that tell whether an account exists, per address (account discovery).
 * - mail sent on a signed-out request (reset, verification, registration), per address and per account.
 * @internal
 */
export const ACCOUNT_LIMITS: Record<'passwordPerAccount' | 'passwordPerAddress' | 'lookupPerAddress' | 'mailPerAddress' | 'mailPerAccount', { max: number; windowMs: number }> = {
  passwordPerAccount: { max: 20, windowMs: 15 * 60_000 },
  passwordPerAddress: { max: 30, windowMs: 15 * 60_000 },
  lookupPerAddress: { max: 40, windowMs: 10 * 60_000 },
  mailPerAddress: { max: 20, windowMs: 15 * 60_000 },
  mailPerAccount: { max: 10, windowMs: 60 * 60_000 },
};

export type AccountLimitGroup = 'password' | 'lookup' | 'mail';

declare module 'fastify' {
  interface FastifyRequest {
    /** Rate-limit keys counted for this request that a success gives back. */
    refundableLimitKeys?: string[];
  }
}

/**
 * preHandler (after body parsing) counting the request against its group's budgets, and an onResponse
 * hook giving a password try back when it succeeded. `applies` skips requests outside the group (e.g.
 * {payments}/v1/admin/auth without credentials).
 */
export function accountLimits(
  instance: FastifyInstance,
  group: AccountLimitGroup,
  applies: (request: FastifyRequest) => boolean = () => true,
): { preHandler: preHandlerHookHandler; onResponse: onResponseHookHandler } {
  const db = instance.db;
  const preHandler: preHandlerHookHandler = async (request) => {
    if (!applies(request)) return;
    // A full hashing pool refuses (503) before anything is counted or computed.
    if (group !== 'lookup') assertHashingCapacity();
    const email = requestEmail(request);
    // Read at request time, so a test can lower the budgets (rate-limit-spread.test.ts).
    const checks: Array<{ key: string; max: number; windowMs: number }> = [];
    if (group === 'password') {
      checks.push({ key: `pw-addr|${request.ip}`, ...ACCOUNT_LIMITS.passwordPerAddress });
      if (email) checks.push({ key: `pw-acct|${email}`, ...ACCOUNT_LIMITS.passwordPerAccount });
    } else if (group === 'lookup') {
      checks.push({ key: `lookup-addr|${request.ip}`, ...ACCOUNT_LIMITS.lookupPerAddress });
    } else {
      checks.push({ key: `mail-addr|${request.ip}`, ...ACCOUNT_LIMITS.mailPerAddress });
      if (email) checks.push({ key: `mail-acct|${email}`, ...ACCOUNT_LIMITS.mailPerAccount });
    }
    let refused = false;
    const counted: string[] = [];
    for (const check of checks) {
      const { hits } = await countRequest(db, check.key, check.windowMs);
      counted.push(check.key);
      if (hits > check.max) refused = true;
    }
    if (group === 'password') request.refundableLimitKeys = counted;
    if (refused) {
      if (group === 'password') request.refundableLimitKeys = [];
      throw group === 'password' ? tooManyPasswordAttempts() : tooManyRequests();
    }
  };
  const onResponse: onResponseHookHandler = async (request, reply) => {
    const keys = request.refundableLimitKeys;
    if (!keys?.length || reply.statusCode >= 300) return;
    request.refundableLimitKeys = [];
    await Promise.all(keys.map((key) => refundRequest(db, key))).catch((error: unknown) => request.log.warn({ err: error }, 'rate-limit refund failed'));
  };
  return { preHandler, onResponse };
}
