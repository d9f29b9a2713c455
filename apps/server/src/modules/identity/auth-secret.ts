import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Env } from '../../env.js';

/** The file in DATA_DIR that keeps the secret generated on first start when AUTH_SECRET is unset. @internal */
export const AUTH_SECRET_FILE = 'auth-secret';

const MIN_LENGTH = 32;

/**
 * The secret that signs sessions, tokens and links. AUTH_SECRET wins; production requires it (env.ts),
 * since copies of the server must share it. Otherwise the first start generates 32 random bytes and keeps
 * them in DATA_DIR/auth-secret (mode 0600), and later starts read that file: there is no constant secret
 * in any mode. Throws, with what to fix, where the secret cannot be kept. Never logs the secret.
 */
export async function resolveAuthSecret(env: Env, log: (line: string) => void): Promise<Env> {
  if (env.AUTH_SECRET) return env;
  const dir = resolve(env.DATA_DIR);
  const file = join(dir, AUTH_SECRET_FILE);
  const existing = await readKept(file);
  if (existing !== null) return { ...env, AUTH_SECRET: existing };

  const secret = randomBytes(32).toString('base64url');
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // 'wx': never overwrite a secret another process has just written.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const written = await readKept(file);
      if (written !== null) return { ...env, AUTH_SECRET: written };
    }
    throw notWritable(file, error);
  }
  log(`AUTH_SECRET is not set: generated one and kept it in ${file} (mode 0600). Deleting or changing it ends every session and link.`);
  return { ...env, AUTH_SECRET: secret };
}

/** The kept secret, or null when there is none yet; throws when it is unsafe or unusable. */
async function readKept(file: string): Promise<string | null> {
  let mode: number;
  try {
    mode = (await stat(file)).mode;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ENOTDIR') throw notWritable(file, error);
    throw new Error(`Cannot read the AUTH_SECRET kept in ${file} (${(error as Error).message}). Set AUTH_SECRET or fix the file.`);
  }
  if ((mode & 0o077) !== 0) {
    throw new Error(`The AUTH_SECRET kept in ${file} can be read by other users: run chmod 0600 on it (or set AUTH_SECRET).`);
  }
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < MIN_LENGTH) {
    throw new Error(`The AUTH_SECRET kept in ${file} is shorter than ${MIN_LENGTH} characters: delete the file to generate a new one, or set AUTH_SECRET.`);
  }
  return secret;
}

function notWritable(file: string, error: unknown): Error {
  return new Error(
    `DATA_DIR is not writable: cannot keep a generated AUTH_SECRET in ${file} (${(error as Error).message}). Set AUTH_SECRET (32+ characters), or set DATA_DIR to a folder this user can write.`,
  );
}
