import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Env } from '../env.js';
import type { JobQueue } from '../jobs/boss.js';
import { mailRepository } from './mail.repository.js';
import { SEND_MAIL_QUEUE, sendMailHandler, sendMailRetryPolicy, type SendMailJobData } from './send-mail.job.js';

interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The organisation the mail is about, when there is one (kept on the outbox row). */
  organisationId?: string | null;
}

/** The one way Quire sends mail. Other modules call `app.mail.send(...)`. */
export interface MailService {
  /** Writes the mail to the outbox (status queued) and queues its delivery; resolves with the outbox id. */
  send(message: MailMessage): Promise<{ id: string }>;
  /** Resolves once every queued mail was delivered, logged or finally failed (tests; default timeout 20 s). */
  waitForIdle(timeoutMs?: number): Promise<void>;
}

export interface MailServiceDeps {
  db: Kysely<DB>;
  env: Env;
  jobs: JobQueue;
  log: (fields: Record<string, unknown>, line: string) => void;
}

/**
 * Starts the send-mail worker and returns the service. With SMTP_URL mail goes out through nodemailer;
 * without it each mail is marked 'logged' and one log line shows recipient, subject and links.
 */
export async function startMailService({ db, env, jobs, log }: MailServiceDeps): Promise<MailService> {
  const repository = mailRepository(db);
  const policy = sendMailRetryPolicy(env.NODE_ENV);
  const transport = env.SMTP_URL ? nodemailer.createTransport(env.SMTP_URL) : null;

  await jobs.work<SendMailJobData>(
    SEND_MAIL_QUEUE,
    policy,
    sendMailHandler({ repository, transport, from: env.MAIL_FROM, retryLimit: policy.retryLimit, log, logLinks: env.NODE_ENV !== 'production' }),
  );

  // The job id is the outbox id, so queuing a mail twice is harmless: pg-boss keeps the first.
  const enqueue = (outboxId: string) => jobs.send<SendMailJobData>(SEND_MAIL_QUEUE, { outboxId }, { id: outboxId });

  // A mail written just before a crash may never have been queued: queue it now.
  for (const id of await repository.findQueuedIds()) await enqueue(id);

  return {
    async send(message) {
      const id = randomUUID();
      await repository.insert({
        id,
        organisationId: message.organisationId ?? null,
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html ?? null,
      });
      await enqueue(id);
      return { id };
    },
    waitForIdle: (timeoutMs) => jobs.waitForIdle(SEND_MAIL_QUEUE, timeoutMs),
  };
}
