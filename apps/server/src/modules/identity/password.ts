import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Env } from '../../env.js';
import { defaultHashPoolOptions, HashPool, HashPoolBusy, type HashPoolOptions } from './hash-pool.js';

/**
 * Password hashing with scrypt at OWASP's recommended parameters (N=2^17, r=8, p=1).
 * Format: `scrypt$N$r$p$saltB64$hashB64`, so parameters can be raised later without breaking old hashes.
 * Used by the identity service (Better Auth's password hooks) and by the demo generator.
 * Every hash runs in the small worker pool of hash-pool.ts: a flood of sign-ins waits there (or is refused
 * with 503) instead of taking the event loop's thread pool and the server's memory.
 */
/** log2 of scrypt's N for new hashes: OWASP's 17 unless PASSWORD_SCRYPT_LOG2_N lowers it for a test run (env.ts). */
const DEFAULT_LOG2_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

/** Stored hashes with larger parameters than these are refused (a tampered row must not stall the pool). */
const MAX_N = 2 ** 20;
const MAX_R = 16;
const MAX_P = 4;

let pool = new HashPool(defaultHashPoolOptions());
let log2N = DEFAULT_LOG2_N;

/**
 * Sizes the hashing pool (PASSWORD_HASH_WORKERS / PASSWORD_HASH_QUEUE; hashes under way finish on the old one) and
 * sets the cost of new hashes (PASSWORD_SCRYPT_LOG2_N; unset: 17).
 */
export function configurePasswordHashing(options: Partial<HashPoolOptions> & { log2N?: number }): void {
  log2N = options.log2N ?? DEFAULT_LOG2_N;
  const defaults = defaultHashPoolOptions();
  // An unset setting keeps its default (an explicit undefined must not erase it: that was an unbounded pool).
  const next: HashPoolOptions = { workers: options.workers ?? defaults.workers, maxQueue: options.maxQueue ?? defaults.maxQueue };
  if (next.workers === pool.options.workers && next.maxQueue === pool.options.maxQueue) return;
  const previous = pool;
  pool = new HashPool(next);
  setTimeout(() => void previous.close(), 30_000).unref();
}

/** The hashing settings of a configuration: what the server, the app and the seed command each apply at start. */
export function passwordHashingSettings(env: Pick<Env, 'PASSWORD_HASH_WORKERS' | 'PASSWORD_HASH_QUEUE' | 'PASSWORD_SCRYPT_LOG2_N'>) {
  return { workers: env.PASSWORD_HASH_WORKERS, maxQueue: env.PASSWORD_HASH_QUEUE, log2N: env.PASSWORD_SCRYPT_LOG2_N };
}

/** The pool's size and the cost of new hashes now (tests, docs). @internal */
export function passwordHashingOptions(): HashPoolOptions & { log2N: number } {
  return { ...pool.options, log2N };
}

/** Refuses (503) before any work when the hashing pool is full: callers that cannot pass the error through check first. */
export function assertHashingCapacity(): void {
  if (pool.full) throw new HashPoolBusy();
}

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  if (!(n > 1 && n <= MAX_N && r >= 1 && r <= MAX_R && p >= 1 && p <= MAX_P)) return Promise.reject(new Error('Unsupported scrypt parameters'));
  return pool.scrypt({ password: password.normalize('NFKC'), salt, keyLength: KEY_LENGTH, N: n, r, p });
}

export async function hashPassword(password: string): Promise<string> {
  const n = 2 ** log2N;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

let dummy: { log2N: number; hash: Promise<string> } | null = null;

/**
 * A hash of no one's password at the current cost: checked against when an account does not exist, so that answer
 * takes as long as a wrong password (made once per cost, on first use).
 */
export function dummyPasswordHash(): Promise<string> {
  if (dummy?.log2N !== log2N) dummy = { log2N, hash: hashPassword('not-a-real-password') };
  return dummy.hash;
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
