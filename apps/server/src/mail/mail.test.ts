import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { buildTestApp, type TestApp } from '../../test/helper.js';
import { buildOrganisation } from '../../test/factories.js';
import { linksIn, loggedMailLine } from './send-mail.job.js';

/** Mail without SMTP_URL: kept in the outbox, marked 'logged', one log line with the links. */
describe('mail without an SMTP server', () => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    t = await buildTestApp({ SMTP_URL: undefined }, { logger: { level: 'info', stream } });
  });
  afterAll(() => t?.close());

  it('writes the mail to the outbox and logs it with every link', async () => {
    const org = await buildOrganisation(t.app.db);
    const { id } = await t.app.mail.send({
      to: 'new.teacher@example.org',
      subject: 'Welcome to Quire',
      text: 'Sign up at http://localhost:3100/sign-up?code=abc and read https://help.quire.app/start.',
      html: '<p>Welcome</p>',
      organisationId: org.id,
    });
    await t.app.mail.waitForIdle();

    const row = await t.app.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      recipient: 'new.teacher@example.org',
      subject: 'Welcome to Quire',
      html_body: '<p>Welcome</p>',
      organisation_id: org.id,
      status: 'logged',
      attempts: 1,
      last_error: null,
    });
    expect(row.sent_at).toBeInstanceOf(Date);

    const logged = lines.find((l) => l.mailId === id);
    expect(logged?.msg).toBe(
      'Mail to new.teacher@example.org: "Welcome to Quire" links: http://localhost:3100/sign-up?code=abc https://help.quire.app/start',
    );
  });

  it('delivers mail left queued by a previous run when the server starts again', async () => {
    // A crash between writing the outbox row and queuing its job leaves a queued row without a job.
    await t.app.db
      .insertInto('mail_outbox')
      .values({ id: crypto.randomUUID(), recipient: 'left@example.org', subject: 'Left behind', text_body: 'Hello' })
      .execute();
    const second = await buildApp({ env: t.env, database: t.database, logger: false });
    try {
      await second.ready();
      await second.mail.waitForIdle();
      const row = await t.app.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'left@example.org').executeTakeFirstOrThrow();
      expect(row.status).toBe('logged');
      expect(row.attempts).toBe(1);
    } finally {
      await second.close();
    }
  });
});

describe('links in a mail', () => {
  it('finds each link once, without trailing punctuation', () => {
    expect(linksIn('Go to https://a.example/x?y=1, or (https://b.example/z). Again https://a.example/x?y=1')).toEqual([
      'https://a.example/x?y=1',
      'https://b.example/z',
    ]);
    expect(loggedMailLine({ recipient: 'a@b.c', subject: 'Hi', text_body: 'No links' })).toBe('Mail to a@b.c: "Hi"');
  });
});
