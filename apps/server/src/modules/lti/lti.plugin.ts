import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { vaultFor } from './lti-crypto.js';
import { encryptPlaintextSecrets } from './lti-credentials.service.js';
import { ltiGraphql } from './lti.graphql.js';
import { ltiRoutes } from './lti.routes.js';
import { ltiPlatformRoutes } from './lti-platforms.routes.js';
import { PlatformKeySets } from './lti-advantage.service.js';
import { ensureToolKey } from './lti-tool-keys.js';
import { NRPS_QUEUE, nrpsQueueOptions, syncCourseTeachers, type NrpsJobData } from './lti-nrps.service.js';

/**
 * LTI 1.1 (docs/lti.md): the launch endpoint and the cartridge; the credentials in GraphQL
 * (Organisation.lti, generate and revoke). At start the secret key is resolved and any secret
 * still stored in plaintext is encrypted.
 */
async function ltiPlugin(app: FastifyInstance): Promise<void> {
  const vault = vaultFor(app.env);
  if (vault.source === 'generated-file') app.log.warn('LTI_ENCRYPTION_KEY is not set: using a generated key kept in DATA_DIR (development only)');
  const encrypted = await encryptPlaintextSecrets(app.db, app.env);
  if (encrypted > 0) app.log.info({ count: encrypted }, 'encrypted stored LTI consumer secrets');
  await ensureToolKey(app.db, app.env);
  // A teacher's launch queues the course's roster (Names and Role Provisioning Services): its teachers become pending
  // members. A job, so the launch never waits for the platform, and a platform that fails is tried again later.
  await app.jobs.work<NrpsJobData>(NRPS_QUEUE, nrpsQueueOptions(app.env.NODE_ENV), async (job) => {
    const added = await syncCourseTeachers(app.db, app.env, job.data);
    app.log.info({ platformId: job.data.platformId, added }, 'lti course teachers provisioned');
  });
  // The platforms' key sets live as long as the app: jose caches each platform's keys in them.
  await app.register(ltiRoutes, { keySets: new PlatformKeySets() });
  await app.register(ltiPlatformRoutes);
}

export const ltiModule: ServerModule = { name: 'lti', plugin: ltiPlugin, graphql: ltiGraphql };
