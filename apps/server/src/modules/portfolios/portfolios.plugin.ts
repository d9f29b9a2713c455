import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerModule } from '../../plugins/server-module.js';
import { linkSigner } from '../access/signed-links.js';
import type { BuildOptions } from './export-build.service.js';
import { PORTFOLIO_EXPORT_QUEUE, portfolioExportHandler, portfolioExportQueueOptions, type PortfolioExportJobData } from './portfolios.job.js';
import { organisationsDueForExport } from './portfolios.repository.js';
import { portfoliosRoutes } from './portfolios.routes.js';

/** How often the server looks for organisations whose export is missing or stale. */
const SWEEP_EVERY_MS = 15 * 60 * 1000;

declare module 'fastify' {
  interface FastifyInstance {
    portfolios: {
      /** Queues a build of the organisation's export (no-op when one is already waiting). */
      requestBuild(organisationId: string): Promise<void>;
      /** Queues a build for every organisation whose export is missing or older than the interval. */
      sweep(): Promise<number>;
      /** Test hook: options for the next builds (e.g. a failure part-way). */
      setBuildOptions(options: BuildOptions): void;
    };
  }
}

/**
 * Student portfolios (docs/portfolios.md): the export call, its signed download, and the background build.
 * The export is built when an organisation has portfolios on and no export yet (first switched on), then
 * again once it is older than PORTFOLIO_EXPORT_INTERVAL_HOURS; every server copy sweeps, and the queue's
 * singleton key keeps it to one build per organisation.
 */
const portfoliosPlugin = fp(async (app: FastifyInstance): Promise<void> => {
  let buildOptions: BuildOptions = {};
  await app.jobs.work<PortfolioExportJobData>(
    PORTFOLIO_EXPORT_QUEUE,
    portfolioExportQueueOptions(app.env.NODE_ENV),
    portfolioExportHandler(app.database, (fields, line) => app.log.info(fields, line), () => buildOptions),
  );
  const requestBuild = async (organisationId: string) => {
    await app.jobs.send<PortfolioExportJobData>(PORTFOLIO_EXPORT_QUEUE, { organisationId }, { singletonKey: organisationId });
  };
  const sweep = async () => {
    const due = await organisationsDueForExport(app.db, app.env.PORTFOLIO_EXPORT_INTERVAL_HOURS);
    for (const organisationId of due) await requestBuild(organisationId);
    return due.length;
  };
  app.decorate('portfolios', { requestBuild, sweep, setBuildOptions: (options: BuildOptions) => void (buildOptions = options) });

  const runSweep = () => {
    sweep().catch((error: unknown) => app.log.error({ err: error }, 'Student portfolio sweep failed'));
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    runSweep();
    timer = setInterval(runSweep, SWEEP_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });

  const links = linkSigner(app.env.AUTH_SECRET, 'portfolio-download');
  await app.register(portfoliosRoutes({ db: app.db, pool: app.database.pool, env: app.env, links, requestBuild }));
}, { name: 'portfolios' });

export const portfoliosModule: ServerModule = { name: 'portfolios', plugin: portfoliosPlugin };
