import fp from 'fastify-plugin';
import { startJobQueue, type JobQueue } from '../jobs/boss.js';
import { startMailService, type MailService } from '../mail/mail.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Background jobs (pg-boss on the app's database). */
    jobs: JobQueue;
    /** The one mail service: `app.mail.send({ to, subject, text, html?, organisationId? })`. */
    mail: MailService;
  }
}

/** Starts the job queue and the mail worker with the app; app.close() stops them before the database closes. */
export const backgroundPlugin = fp(async (app) => {
  const jobs = await startJobQueue(app.database, app.env, {
    log: (line, error) => app.log.error({ err: error }, line),
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
  });
  const mail = await startMailService({
    db: app.db,
    env: app.env,
    jobs,
    log: (fields, line) => app.log.info(fields, line),
  });
  app.decorate('jobs', jobs);
  app.decorate('mail', mail);
});
