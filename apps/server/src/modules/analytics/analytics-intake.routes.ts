import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { analyticsIntakeBodySchema, analyticsIntakeRefusalSchema, analyticsIntakeResultSchema } from '@quire/core';
import { z } from 'zod';
import { AppError, unauthorised } from '../../errors.js';
import type { AnalyticsAnswerCache } from './analytics-cache.js';
import { ingestEvents } from './analytics.service.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares the request's bearer key with ANALYTICS_INGEST_KEY in constant time. */
function checkIngestKey(request: FastifyRequest, key: string | undefined): void {
  // Switched off, the intake does not exist: 404, never a 5xx a caller could provoke.
  if (!key) throw new AppError(404, 'analytics_intake_off', 'Analytics intake is not configured on this server (ANALYTICS_INGEST_KEY)');
  const header = request.headers.authorization ?? '';
  const match = /^Bearer (.+)$/i.exec(header);
  if (!match?.[1] || !timingSafeEqual(digest(match[1]), digest(key))) {
    throw unauthorised('A valid analytics intake key is required', 'analytics_key_invalid');
  }
}

/**
 * POST /analytics/events: the product reports session events, server to server (docs/analytics.md).
 * Not a console call, so no session and no Origin check; the intake key authenticates it.
 */
export const analyticsIntakeRoutes = (cache: AnalyticsAnswerCache): FastifyPluginAsyncZod => async (app) => {
  app.post(
    '/analytics/events',
    {
      config: { csrf: false },
      onRequest: async (request) => checkIngestKey(request, app.env.ANALYTICS_INGEST_KEY),
      schema: {
        tags: ['analytics'],
        summary: 'Report session events (server to server)',
        description:
          'Authenticated with `Authorization: Bearer <ANALYTICS_INGEST_KEY>`. Up to 1,000 events a request. ' +
          'Every event is checked; if any is bad the whole batch is refused (400 `invalid_events`, one reason per bad event) ' +
          'and nothing is recorded. Idempotent by event id: events the organisation already has are skipped and reported ' +
          'as duplicates, so a batch retried after a timeout is never counted twice. Daily rollups are updated in the same transaction.',
        headers: z.object({ authorization: z.string().max(512).optional() }).passthrough(),
        body: analyticsIntakeBodySchema,
        response: {
          200: analyticsIntakeResultSchema,
          400: analyticsIntakeRefusalSchema.or(z.object({ code: z.string(), message: z.string() })),
        },
      },
    },
    async (request) => {
      const result = await ingestEvents(app.db, request.body.events);
      // Every event was valid (ingestEvents refuses the whole batch otherwise): their organisations' kept answers
      // are out of date now (analytics-cache.ts).
      cache.forget(new Set(request.body.events.map((e) => (e as { organisationId: string }).organisationId)));
      return result;
    },
  );
};
