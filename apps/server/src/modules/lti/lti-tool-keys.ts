import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, type CryptoKey, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import type { Env } from '../../env.js';
import { vaultFor } from './lti-crypto.js';
import * as repo from './lti-advantage.repository.js';

/**
 * The tool's LTI 1.3 signing keys (docs/lti.md "The tool's keys"): RSA 2048 (RS256, what every platform accepts),
 * the private key encrypted under LTI_ENCRYPTION_KEY like the 1.1 secrets and bound to its kid, the public key
 * published at the JWKS URL. A key is replaced after KEY_LIFETIME_DAYS; the one it replaces stays published for
 * RETIRED_PUBLISHED_DAYS, longer than anything it signed lives (a deep-linking answer lives 5 minutes).
 */
const TOOL_KEY_ALGORITHM = 'RS256';
const KEY_LIFETIME_DAYS = 90;
const RETIRED_PUBLISHED_DAYS = 7;
const DAY_MS = 86_400_000;

const binding = (kid: string) => ({ organisationId: '', consumerKey: `lti-tool-key:${kid}` });

async function newKey(db: Kysely<DB>, env: Env): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(TOOL_KEY_ALGORITHM, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  const pem = await exportPKCS8(privateKey);
  await repo.insertToolKey(db, { kid, privateKey: vaultFor(env).encrypt(pem, binding(kid)), publicJwk: { ...jwk, kid, alg: TOOL_KEY_ALGORITHM, use: 'sig' } });
  return kid;
}

/**
 * Makes sure the tool has a current key: the first start makes one, a key older than its lifetime is replaced (the old
 * one retired, still published). One server copy at a time decides (an advisory lock). Returns the current kid.
 */
export async function ensureToolKey(db: Kysely<DB>, env: Env, now = new Date()): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await repo.lockToolKeys(trx);
    const keys = await repo.listToolKeys(trx, now);
    const current = keys.find((k) => k.retired_at === null && vaultFor(env).decrypt(k.private_key, binding(k.kid)) !== null);
    if (current && now.getTime() - new Date(current.created_at).getTime() < KEY_LIFETIME_DAYS * DAY_MS) return current.kid;
    const kid = await newKey(trx, env);
    await repo.retireToolKeys(trx, kid, now);
    return kid;
  });
}

/** The JWKS: the current key and those retired in the last RETIRED_PUBLISHED_DAYS. */
export async function publicJwks(db: Kysely<DB>, now = new Date()): Promise<{ keys: JWK[] }> {
  const keys = await repo.listToolKeys(db, new Date(now.getTime() - RETIRED_PUBLISHED_DAYS * DAY_MS));
  return { keys: keys.map((k) => (typeof k.public_jwk === 'string' ? JSON.parse(k.public_jwk) : k.public_jwk) as JWK) };
}

/** The current private key and its kid, for what the tool signs (deep linking answers). */
export async function currentSigningKey(db: Kysely<DB>, env: Env): Promise<{ kid: string; key: CryptoKey }> {
  const kid = await ensureToolKey(db, env);
  const [row] = (await repo.listToolKeys(db, new Date())).filter((k) => k.kid === kid);
  const pem = row ? vaultFor(env).decrypt(row.private_key, binding(kid)) : null;
  if (!pem) throw new Error('the current LTI tool key cannot be decrypted');
  return { kid, key: await importPKCS8(pem, TOOL_KEY_ALGORITHM) };
}
