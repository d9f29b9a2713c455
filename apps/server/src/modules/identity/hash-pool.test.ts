import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { HashPool, HashPoolBusy } from './hash-pool.js';
import { configurePasswordHashing, hashPassword, passwordHashingOptions, verifyPassword } from './password.js';

/** Hashing runs in a small fixed pool with a bounded queue. */
describe('password hashing pool', () => {
  const pool = new HashPool({ workers: 1, maxQueue: 2 });
  afterAll(() => pool.close());

  it('computes the same key as scrypt', async () => {
    const salt = randomBytes(16);
    const key = await pool.scrypt({ password: 'secret-1', salt, keyLength: 64, N: 2 ** 14, r: 8, p: 1 });
    expect(key.equals(scryptSync('secret-1', salt, 64, { N: 2 ** 14, r: 8, p: 1 }))).toBe(true);
  });

  it('runs one hash per worker, queues up to the limit and refuses the rest at once', async () => {
    const job = () => pool.scrypt({ password: 'x', salt: randomBytes(16), keyLength: 64, N: 2 ** 14, r: 8, p: 1 });
    const results = await Promise.allSettled([job(), job(), job(), job(), job()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(HashPoolBusy);
      expect(r.reason).toMatchObject({ statusCode: 503, code: 'server_busy' });
    }
    // Once the queue drained, the pool takes work again.
    expect(await job()).toHaveLength(64);
  });

  it('stays bounded when PASSWORD_HASH_WORKERS and PASSWORD_HASH_QUEUE are unset', () => {
    const before = passwordHashingOptions();
    configurePasswordHashing({ workers: undefined, maxQueue: undefined, log2N: before.log2N });
    const after = passwordHashingOptions();
    expect(after).toEqual(before);
    expect(after.workers).toBeGreaterThanOrEqual(1);
    expect(after.workers).toBeLessThanOrEqual(4);
    expect(Number.isInteger(after.maxQueue)).toBe(true);
    expect(() => new HashPool({ workers: undefined as unknown as number, maxQueue: 1 })).toThrow();
  });

  it('hashes at OWASP scrypt parameters by default and verifies through the pool', async () => {
    const before = passwordHashingOptions();
    try {
      configurePasswordHashing({ workers: before.workers, maxQueue: before.maxQueue });
      const hash = await hashPassword('correct horse');
      expect(hash.startsWith('scrypt$131072$8$1$')).toBe(true);
      expect(await verifyPassword(hash, 'correct horse')).toBe(true);
      expect(await verifyPassword(hash, 'wrong horse')).toBe(false);
    } finally {
      configurePasswordHashing(before);
    }
  });

  it("hashes at PASSWORD_SCRYPT_LOG2_N's cost and still verifies a hash made at another cost", async () => {
    const before = passwordHashingOptions();
    try {
      configurePasswordHashing({ ...before, log2N: 17 });
      const strong = await hashPassword('correct horse');
      configurePasswordHashing({ ...before, log2N: 10 });
      const cheap = await hashPassword('correct horse');
      expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
      expect(await verifyPassword(strong, 'correct horse')).toBe(true);
      expect(await verifyPassword(cheap, 'correct horse')).toBe(true);
      expect(await verifyPassword(cheap, 'wrong horse')).toBe(false);
    } finally {
      configurePasswordHashing(before);
    }
  });

  it('refuses a stored hash with parameters that would stall the pool', async () => {
    await expect(verifyPassword(`scrypt$${2 ** 24}$8$1$${randomBytes(16).toString('base64')}$${randomBytes(64).toString('base64')}`, 'x')).rejects.toThrow();
  });
});
