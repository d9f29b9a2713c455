import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env.js';
import { loggerOptions } from './logger.js';

function capture(options: pino.LoggerOptions) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino(options, stream), lines };
}

describe('server log', () => {
  it('takes its level from LOG_LEVEL and is plain JSON when not on a terminal', () => {
    const options = loggerOptions(loadEnv({ LOG_LEVEL: 'warn' }), false);
    expect(options.level).toBe('warn');
    expect(options.transport).toBeUndefined();
    expect(loggerOptions(loadEnv({}), true).transport).toMatchObject({ target: 'pino-pretty' });
  });

  it('never writes passwords, tokens, secrets, cookies or authorisation headers', () => {
    const { logger, lines } = capture(loggerOptions(loadEnv({}), false));
    logger.info(
      {
        req: { headers: { authorization: 'Bearer abc.def', cookie: '__admin_session=s3cr3t', 'user-agent': 'test' } },
        res: { headers: { 'set-cookie': '__admin_session=s3cr3t' } },
        body: { email: 'a@b.c', password: 'hunter22', user: { idToken: 'id-tok', accessToken: 'acc-tok', refreshToken: 'ref-tok' } },
        consumerSecret: 'lti-secret',
        token: 'plain-token',
        nested: { deeper: { secret: 'deep-secret' } },
      },
      'request',
    );
    const line = lines.join('');
    for (const secret of ['abc.def', 's3cr3t', 'hunter22', 'id-tok', 'acc-tok', 'ref-tok', 'lti-secret', 'plain-token', 'deep-secret']) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain('a@b.c');
    expect(line).toContain('[redacted]');
  });
});
