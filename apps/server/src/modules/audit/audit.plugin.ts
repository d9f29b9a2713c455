import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerModule } from '../../plugins/server-module.js';
import { askForRetentionRun, AUDIT_RETENTION_QUEUE, auditRetentionQueueOptions, purgeExpiredAuditEvents } from './audit-retention.job.js';
import { auditRoutes } from './audit.routes.js';

/** How often each server copy asks for the day's retention run; pg-boss throttles it to one run a day. */
const ASK_EVERY_MS = 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    auditRetention: {
      /** Runs the retention now, in this process (tests, operations). */
      runNow(): Promise<Array<{ organisationId: string; deleted: number }>>;
    };
  }
}

/**
 * The audit log (docs/audit-log.md): its routes, and the daily retention job. Every server copy asks for the day's
 * run every hour; the queue's singleton key and a one-day throttle let exactly one run a day, on one copy.
 */
const auditPlugin = fp(async (app: FastifyInstance): Promise<void> => {
  await app.jobs.work(AUDIT_RETENTION_QUEUE, auditRetentionQueueOptions(app.env.NODE_ENV), async () => {
    const done = await purgeExpiredAuditEvents(app.db);
    for (const { organisationId, deleted } of done) app.log.info({ organisationId, deleted }, 'Expired audit entries deleted');
  });
  app.decorate('auditRetention', { runNow: () => purgeExpiredAuditEvents(app.db) });

  const ask = () => {
    askForRetentionRun(app.jobs).catch((error: unknown) => app.log.error({ err: error }, 'Audit retention could not be queued'));
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (app.env.NODE_ENV === 'test') return;
    ask();
    timer = setInterval(ask, ASK_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });

  await app.register(auditRoutes);
}, { name: 'audit' });

export const auditModule: ServerModule = { name: 'audit', plugin: auditPlugin };
