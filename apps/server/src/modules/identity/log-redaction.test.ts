import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env.js';
import { loggerOptions } from '../../plugins/logger.js';

describe('request logs', () => {
  it('never carry the single-use tokens of mail links, nor the session cookie', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info' }), false), stream } });
    app.get('/identity/verify-email', async () => 'ok');
    await app.inject({ method: 'GET', url: '/identity/verify-email?token=SECRET-TOKEN&callbackURL=/sign-in', headers: { cookie: '__admin_session=SECRET-SESSION' } });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('/identity/verify-email?token=[redacted]&callbackURL=/sign-in');
    expect(log).not.toContain('SECRET-TOKEN');
    expect(log).not.toContain('SECRET-SESSION');
  });
});
