import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { applyBatchSize } from './roster-apply.service.js';
import { ROSTER_APPLY_QUEUE, rosterApplyHandler, rosterQueueOptions, type RosterApplyJobData } from './roster.job.js';
import { rosterRoutes } from './roster.routes.js';

/**
 * Rostering from a student information system (docs/rostering.md): the Rostering page's calls, and the apply job on
 * the job queue (pg-boss), which survives a restart: a job that was running is retried and carries on.
 */
async function rosteringPlugin(app: FastifyInstance): Promise<void> {
  const adminRules = { providerEmailDomain: app.env.PROVIDER_EMAIL_DOMAIN, productName: app.env.PRODUCT_NAME, districtSsoDomains: app.env.DISTRICT_SSO_DOMAINS.split(',') };
  await app.jobs.work<RosterApplyJobData>(
    ROSTER_APPLY_QUEUE,
    rosterQueueOptions(app.env.NODE_ENV),
    rosterApplyHandler({ db: app.db, adminRules, batchSize: applyBatchSize(app.database.kind) }, app.env.NODE_ENV, (fields, line) => app.log.info(fields, line)),
  );
  const queueApply = async (organisationId: string, importId: string) => {
    await app.jobs.send<RosterApplyJobData>(ROSTER_APPLY_QUEUE, { organisationId, importId }, { singletonKey: importId });
  };
  await app.register(rosterRoutes({ db: app.db, queueApply }));
}

export const rosteringModule: ServerModule = { name: 'rostering', plugin: rosteringPlugin };
