import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real local SMTP server that can be told to refuse the next N messages. */
async function startSmtp() {
  const received: Received[] = [];
  const state = { refuse: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.refuse > 0) {
          state.refuse -= 1;
          const error = Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 });
          return callback(error);
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { server, port, received, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('mail through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Quire <no-reply@quire.test>' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const outbox = (id: string) => t.app.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('sends the mail and marks it sent', async () => {
    const { id } = await t.app.mail.send({ to: 'head@example.org', subject: 'Reset your password', text: 'Open http://localhost:3100/reset?t=1' });
    await t.app.mail.waitForIdle();
    expect(await outbox(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    const mail = smtp.received.find((m) => m.raw.includes('Reset your password'));
    expect(mail?.from).toBe('no-reply@quire.test');
    expect(mail?.to).toEqual(['head@example.org']);
    expect(mail?.raw).toContain('http://localhost:3100/reset?t=1');
  });

  it('retries after the SMTP server refuses, and sends on a later attempt', async () => {
    smtp.state.refuse = 1;
    const { id } = await t.app.mail.send({ to: 'retry@example.org', subject: 'Second time lucky', text: 'Hello' });
    await t.app.mail.waitForIdle();
    expect(await outbox(id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smtp.received.filter((m) => m.to.includes('retry@example.org'))).toHaveLength(1);
  });

  it('keeps a mail that could never be sent as failed, with the reason', async () => {
    smtp.state.refuse = 100;
    const { id } = await t.app.mail.send({ to: 'never@example.org', subject: 'Never', text: 'Hello' });
    await t.app.mail.waitForIdle(30_000);
    smtp.state.refuse = 0;
    const row = await outbox(id);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(5);
    expect(row.last_error).toContain('Mailbox busy');
  });
});
