import { createHmac } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { consoleOrigin, signIn } from '../../../test/auth.js';
import { AUTH_SECRET_FILE, resolveAuthSecret } from './auth-secret.js';

/** The constant an earlier version signed with when AUTH_SECRET was unset; it is public, so nothing may accept it. */
const PUBLISHED_CONSTANT = 'quire-development-secret-do-not-use-in-production';

let t: TestApp;
const scratch = mkdtempSync(join(tmpdir(), 'quire-secret-'));
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const folder = (name: string) => join(scratch, name);

/** An e-mail verification token as Better Auth signs it (HS256 JWT), with `secret`. */
function verificationToken(secret: string, email: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const body = `${part({ alg: 'HS256' })}.${part({ email, iat: now, exp: now + 3600 })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('the auth secret without AUTH_SECRET', () => {
  it('the identity provider refuses to start with no secret rather than use a constant', async () => {
    await expect(buildApp({ env: { ...t.env, AUTH_SECRET: undefined }, database: t.database, logger: false })).rejects.toThrow(/AUTH_SECRET/);
  });

  it('generates a strong secret on first start, keeps it in DATA_DIR with mode 0600, and reuses it', async () => {
    const lines: string[] = [];
    const dir = folder('first-start');
    const first = await resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: dir }, (line) => lines.push(line));
    const secret = first.AUTH_SECRET ?? '';
    expect(secret.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
    expect(secret).not.toBe(PUBLISHED_CONSTANT);
    const file = join(dir, AUTH_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(secret);
    expect(lines.join('\n')).toContain(file);
    expect(lines.join('\n')).not.toContain(secret);

    const again = await resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: dir }, () => undefined);
    expect(again.AUTH_SECRET).toBe(secret);
    const other = await resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: folder('another-install') }, () => undefined);
    expect(other.AUTH_SECRET).not.toBe(secret);
  });

  it('a configured AUTH_SECRET wins and nothing is written', async () => {
    const dir = folder('configured');
    const env = await resolveAuthSecret({ ...t.env, AUTH_SECRET: 'x'.repeat(40), DATA_DIR: dir }, () => undefined);
    expect(env.AUTH_SECRET).toBe('x'.repeat(40));
    expect(() => statSync(join(dir, AUTH_SECRET_FILE))).toThrow();
  });

  it('refuses to start where the secret cannot be kept, or is readable by others', async () => {
    const blocker = folder('a-file');
    writeFileSync(blocker, 'not a folder');
    await expect(resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: join(blocker, 'data') }, () => undefined)).rejects.toThrow(
      /DATA_DIR is not writable: cannot keep a generated AUTH_SECRET/,
    );

    const dir = folder('loose');
    await resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: dir }, () => undefined);
    chmodSync(join(dir, AUTH_SECRET_FILE), 0o644);
    await expect(resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: dir }, () => undefined)).rejects.toThrow(/0600/);

    const short = folder('short');
    await resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: short }, () => undefined);
    writeFileSync(join(short, AUTH_SECRET_FILE), 'too-short', { mode: 0o600 });
    await expect(resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: short }, () => undefined)).rejects.toThrow(/32/);
  });

  it('a verification token forged with the published constant verifies nothing on a default start', async () => {
    const env = await resolveAuthSecret({ ...t.env, AUTH_SECRET: undefined, DATA_DIR: folder('forgery') }, () => undefined);
    const app = await buildApp({ env, database: t.database, logger: false });
    try {
      await app.ready();
      const email = `forged-${Date.now()}@school.example.org`;
      const registered = await app.inject({
        method: 'POST',
        url: '/auth/email',
        headers: { origin: consoleOrigin(app), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email, password: 'secret-1', displayName: 'Mallory', isTeacher: 'true', registrationAttempt: 'true' }).toString(),
      });
      expect(registered.statusCode).toBe(200);
      const forged = verificationToken(PUBLISHED_CONSTANT, email);
      const answer = await app.inject({ method: 'GET', url: `/identity/verify-email?token=${forged}&callbackURL=/sign-in/verify-email` });
      expect(answer.headers.location).toMatch(/error=/);
      const user = await app.db.selectFrom('user').select('emailVerified').where('email', '=', email).executeTakeFirstOrThrow();
      expect(user.emailVerified).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('rotating the secret ends every session', async () => {
    const { headers } = await signIn(t.app, { email: `rotate-${Date.now()}@school.example.org` });
    const before = await t.app.inject({ method: 'GET', url: '/identity/get-session', headers });
    expect(before.json()?.user).toBeTruthy();
    const rotated = await buildApp({ env: { ...t.env, AUTH_SECRET: 'rotated-'.repeat(6) }, database: t.database, logger: false });
    try {
      await rotated.ready();
      const after = await rotated.inject({ method: 'GET', url: '/identity/get-session', headers });
      expect(after.json()).toBeNull();
    } finally {
      await rotated.close();
    }
  });
});
