import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../plugins/server-module.js';
import { linkSigner } from '../access/signed-links.js';
import { AnalyticsAnswerCache } from './analytics-cache.js';
import { analyticsIntakeRoutes } from './analytics-intake.routes.js';
import { analyticsRoutes } from './analytics.routes.js';
import { createUrlSigner } from './signed-url.js';

/** Every route of the analytics feature (docs/analytics.md): the event intake and the console's calls. */
async function analyticsPlugin(app: FastifyInstance): Promise<void> {
  const signer = createUrlSigner(linkSigner(app.env.AUTH_SECRET, 'analytics-data'), app.env.ANALYTICS_URL_TTL_SECONDS);
  const cache = new AnalyticsAnswerCache(app.env.ANALYTICS_CACHE_SECONDS);
  await app.register(analyticsIntakeRoutes(cache));
  await app.register(analyticsRoutes(signer, cache));
}

export const analyticsModule: ServerModule = { name: 'analytics', plugin: analyticsPlugin };
