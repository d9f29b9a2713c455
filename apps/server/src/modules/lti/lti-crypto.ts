import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../env.js';

/**
 * LTI consumer secrets at rest: AES-256-GCM under LTI_ENCRYPTION_KEY, bound (as additional
 * authenticated data) to the organisation and consumer key, so a ciphertext copied to another row
 * does not decrypt. Stored as `enc:v1:<iv>:<tag>:<ciphertext>` (base64url parts).
 */
const PREFIX = 'enc:v1:';
/** The file a development server keeps its generated key in, under DATA_DIR. */
const GENERATED_KEY_FILE = 'lti-encryption.key';

export interface SecretVault {
  encrypt(plaintext: string, binding: SecretBinding): string;
  /** The plaintext, or null when the value cannot be decrypted (another key, tampered). */
  decrypt(stored: string, binding: SecretBinding): string | null;
  /** Where the key came from, for the start-up log (never the key). */
  source: 'environment' | 'generated-file' | 'generated-memory';
}

interface SecretBinding {
  organisationId: string;
  consumerKey: string;
}

function isEncrypted(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

function parseKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

const aad = (b: SecretBinding) => Buffer.from(`${b.organisationId}\u0000${b.consumerKey}`, 'utf8');

/** @internal */
export function createVault(key: Buffer, source: SecretVault['source']): SecretVault {
  if (key.length !== 32) throw new Error('LTI_ENCRYPTION_KEY must be 32 bytes');
  return {
    source,
    encrypt(plaintext, binding) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(binding));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${body.toString('base64url')}`;
    },
    decrypt(stored, binding) {
      // A value an earlier version stored in plaintext (encrypted at start, see lti.plugin.ts).
      if (!isEncrypted(stored)) return stored;
      const [iv, tag, body] = stored.slice(PREFIX.length).split(':');
      if (!iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(aad(binding));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

const vaults = new WeakMap<Env, SecretVault>();

/**
 * The vault for this configuration. LTI_ENCRYPTION_KEY when set (production requires it, env.ts).
 * Otherwise development generates a key once and keeps it in DATA_DIR/lti-encryption.key (mode 0600),
 * so secrets survive a restart; tests use a random key held in memory. No key is ever a constant in code.
 */
export function vaultFor(env: Env): SecretVault {
  const cached = vaults.get(env);
  if (cached) return cached;
  let vault: SecretVault;
  if (env.LTI_ENCRYPTION_KEY) {
    vault = createVault(parseKey(env.LTI_ENCRYPTION_KEY), 'environment');
  } else if (env.NODE_ENV === 'development') {
    const file = join(env.DATA_DIR, GENERATED_KEY_FILE);
    if (!existsSync(file)) {
      mkdirSync(env.DATA_DIR, { recursive: true });
      try {
        writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        // Another process created it first: use theirs.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    chmodSync(file, 0o600);
    vault = createVault(parseKey(readFileSync(file, 'utf8').trim()), 'generated-file');
  } else if (env.NODE_ENV === 'test') {
    vault = createVault(randomBytes(32), 'generated-memory');
  } else {
    throw new Error('LTI_ENCRYPTION_KEY is required in production');
  }
  vaults.set(env, vault);
  return vault;
}
