import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ANALYTICS_GRANULARITIES, ANALYTICS_METRICS, analyticsCountQuerySchema, analyticsCountSchema, analyticsPeriodicCountSchema,
  analyticsRangeQuerySchema, analyticsSeriesSchema, analyticsSessionSchema, type AnalyticsGranularity, type AnalyticsMetric,
} from '@quire/core';
import { z } from 'zod';
import { requireActor } from '../access/actor.js';
import { createSession, readBooksPeriodic, readCount, readSeries, resolveRange, type CountSubject } from './analytics.service.js';
import type { UrlSigner } from './signed-url.js';

const orgId = z.string().min(1).max(128);
const metricFile = z.enum(ANALYTICS_METRICS.map((m) => `${m}.json`) as [string, ...string[]]);
const granularityFile = z.enum(ANALYTICS_GRANULARITIES.map((g) => `${g}.json`) as [string, ...string[]]);
const privateData = { 'cache-control': 'private, no-store' };

/** The console's analytics calls (spec §7): the session, the counts and the chart data. */
export function analyticsRoutes(signer: UrlSigner): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/analytics/sessions/app/organisations/:orgId',
      {
        schema: {
          tags: ['analytics'],
          summary: 'Analytics session: refreshIn, usersOrganisation and signed URLs (organisation admins)',
          params: z.object({ orgId }),
          response: { 200: analyticsSessionSchema },
        },
      },
      async (request, reply) => {
        reply.headers(privateData);
        return createSession(app.db, signer, requireActor(request), request.params.orgId);
      },
    );

    for (const subject of ['students', 'libraries', 'books'] as CountSubject[]) {
      app.get(
        `/analytics/users/organisations/:orgId/${subject}/count`,
        {
          schema: {
            tags: ['analytics'],
            summary: `Count of ${subject} (signed URL); with from/to, those created between them`,
            params: z.object({ orgId }),
            querystring: analyticsCountQuerySchema,
            response: { 200: analyticsCountSchema },
          },
        },
        async (request, reply) => {
          signer.verify(request.params.orgId, request.query);
          reply.headers(privateData);
          return readCount(app.db, request.params.orgId, subject, request.query);
        },
      );
    }

    app.get(
      '/analytics/users/organisations/:orgId/books/count/periodic',
      {
        schema: {
          tags: ['analytics'],
          summary: 'Books created per day, week or month (signed URL)',
          params: z.object({ orgId }),
          querystring: analyticsCountQuerySchema,
          response: { 200: analyticsPeriodicCountSchema },
        },
      },
      async (request, reply) => {
        signer.verify(request.params.orgId, request.query);
        reply.headers(privateData);
        return readBooksPeriodic(app.db, request.params.orgId, request.query);
      },
    );

    app.get(
      '/analytics/data/app/organisations/:orgId/:file',
      {
        schema: {
          tags: ['analytics'],
          summary: 'A chart metric over the whole range, by name (signed URL)',
          params: z.object({ orgId, file: metricFile }),
          querystring: analyticsRangeQuerySchema,
          response: { 200: analyticsSeriesSchema },
        },
      },
      async (request, reply) => {
        signer.verify(request.params.orgId, request.query);
        reply.headers(privateData);
        const metric = request.params.file.replace(/\.json$/, '') as AnalyticsMetric;
        return readSeries(app.db, request.params.orgId, metric, 'total', resolveRange(request.query));
      },
    );

    app.get(
      '/analytics/data/app/organisations/:orgId/:metric/:file',
      {
        schema: {
          tags: ['analytics'],
          summary: 'A chart metric per day, ISO week or month (signed URL)',
          params: z.object({ orgId, metric: z.enum(ANALYTICS_METRICS), file: granularityFile }),
          querystring: analyticsRangeQuerySchema,
          response: { 200: analyticsSeriesSchema },
        },
      },
      async (request, reply) => {
        signer.verify(request.params.orgId, request.query);
        reply.headers(privateData);
        const granularity = request.params.file.replace(/\.json$/, '') as AnalyticsGranularity;
        return readSeries(app.db, request.params.orgId, request.params.metric, granularity, resolveRange(request.query));
      },
    );
  };
}
