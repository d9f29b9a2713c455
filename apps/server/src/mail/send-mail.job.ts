import type { Job } from 'pg-boss';
import type { Transporter } from 'nodemailer';
import type { MailRepository, OutboxRow } from './mail.repository.js';

export const SEND_MAIL_QUEUE = 'send-mail';

export interface SendMailJobData {
  outboxId: string;
}

/** Retry policy of the send-mail queue: backoff so a mail server that is down is not hammered. */
export function sendMailRetryPolicy(nodeEnv: string) {
  return nodeEnv === 'test'
    ? { retryLimit: 4, retryDelay: 1, retryBackoff: false }
    : { retryLimit: 10, retryDelay: 10, retryBackoff: true, retryDelayMax: 3600 };
}

export interface SendMailDeps {
  repository: MailRepository;
  /** null: no SMTP_URL, the mail is logged and kept in the outbox. */
  transport: Transporter | null;
  from: string;
  retryLimit: number;
  log: (fields: Record<string, unknown>, line: string) => void;
  /**
   * false (production): the log line says the mail went to the outbox, without its links, which carry
   * single-use sign-up, verification and reset tokens. Default true (development and demos).
   */
  logLinks?: boolean;
}

const LINK = /https?:\/\/[^\s<>"')\]]+/g;

/** Every link in a mail's text, so a demo without SMTP can still follow sign-up and reset links. @internal */
export function linksIn(text: string): string[] {
  // A sentence's full stop or comma after a link is not part of it.
  return [...new Set((text.match(LINK) ?? []).map((link) => link.replace(/[.,;:!?]+$/, '')))];
}

/** The one log line of a mail that was not sent (no SMTP_URL). @internal */
export function loggedMailLine(row: Pick<OutboxRow, 'recipient' | 'subject' | 'text_body'>): string {
  const links = linksIn(row.text_body);
  return `Mail to ${row.recipient}: "${row.subject}"${links.length ? ` links: ${links.join(' ')}` : ''}`;
}

/** The production log line of a mail that was not sent: no link, so no token. */
function outboxMailLine(row: Pick<OutboxRow, 'recipient' | 'subject'>): string {
  return `Mail to ${row.recipient}: "${row.subject}" kept in the outbox (SMTP_URL is not set)`;
}

/** Delivers one outbox row. Throws on failure so pg-boss retries it; the outbox row keeps the count and error. */
export function sendMailHandler(deps: SendMailDeps) {
  return async (job: Job<SendMailJobData>): Promise<void> => {
    const row = await deps.repository.findById(job.data.outboxId);
    // Already delivered (a duplicate job after a restart) or removed: nothing to do.
    if (!row || row.status !== 'queued') return;
    if (!deps.transport) {
      if (deps.logLinks === false) deps.log({ mailId: row.id, to: row.recipient }, outboxMailLine(row));
      else deps.log({ mailId: row.id, to: row.recipient, links: linksIn(row.text_body) }, loggedMailLine(row));
      await deps.repository.markDelivered(row.id, 'logged');
      return;
    }
    try {
      await deps.transport.sendMail({
        from: deps.from,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        ...(row.html_body ? { html: row.html_body } : {}),
        messageId: `<${row.id}@quire>`,
      });
    } catch (error) {
      const message = (error as Error).message;
      const final = job.retryCount >= deps.retryLimit;
      await deps.repository.markAttemptFailed(row.id, message, final);
      deps.log({ mailId: row.id, to: row.recipient, attempt: job.retryCount + 1, final }, `Mail to ${row.recipient} failed: ${message}`);
      throw error;
    }
    await deps.repository.markDelivered(row.id, 'sent');
  };
}
