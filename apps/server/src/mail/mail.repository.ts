import type { Kysely, Selectable } from 'kysely';
import type { DB, MailOutboxTable } from '../db/types.js';

export type OutboxRow = Selectable<MailOutboxTable>;

export interface NewOutboxMail {
  id: string;
  organisationId: string | null;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
}

/** The mail_outbox table: every mail Quire sends is a row here first, so none is lost. */
export function mailRepository(db: Kysely<DB>) {
  return {
    async insert(mail: NewOutboxMail): Promise<void> {
      await db
        .insertInto('mail_outbox')
        .values({
          id: mail.id,
          organisation_id: mail.organisationId,
          recipient: mail.recipient,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
        })
        .execute();
    },

    findById(id: string): Promise<OutboxRow | undefined> {
      return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Ids still waiting to be delivered (re-queued at start after a crash between insert and enqueue). */
    async findQueuedIds(limit = 1000): Promise<string[]> {
      const rows = await db
        .selectFrom('mail_outbox')
        .select('id')
        .where('status', '=', 'queued')
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    async markDelivered(id: string, status: 'sent' | 'logged'): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set((eb) => ({ status, attempts: eb('attempts', '+', 1), last_error: null, sent_at: new Date() }))
        .where('id', '=', id)
        .execute();
    },

    /** Records a failed attempt; `final` when no retry is left. */
    async markAttemptFailed(id: string, error: string, final: boolean): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error.slice(0, 2000), ...(final ? { status: 'failed' as const } : {}) }))
        .where('id', '=', id)
        .execute();
    },
  };
}

export type MailRepository = ReturnType<typeof mailRepository>;
