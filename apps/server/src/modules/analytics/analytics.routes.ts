import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ANALYTICS_GRANULARITIES, ANALYTICS_METRICS, analyticsBreakdownSchema, analyticsCountQuerySchema, analyticsCountSchema, analyticsPeriodicCountSchema,
  analyticsRangeQuerySchema, analyticsSeriesSchema, analyticsSessionSchema, type AnalyticsGranularity, type AnalyticsMetric,
} from '@quire/core';
import type { FastifyReply } from 'fastify';
import { z, type ZodType } from 'zod';
import { requireActor } from '../access/actor.js';
import type { AnalyticsAnswerCache } from './analytics-cache.js';
import { createSession, readBooksPeriodic, readBreakdown, readCount, readSeries, resolveRange, type CountSubject } from './analytics.service.js';
import { createLinkSessionCheck } from './link-session.js';
import type { UrlSigner } from './signed-url.js';

const orgId = z.string().min(1).max(128);
const metricFile = z.enum(ANALYTICS_METRICS.map((m) => `${m}.json`) as [string, ...string[]]);
const granularityFile = z.enum(ANALYTICS_GRANULARITIES.map((g) => `${g}.json`) as [string, ...string[]]);
const privateData = { 'cache-control': 'private, no-store' };
/** The data routes are opened by their signed URL, which names its own session: the request's cookie is not looked up. */
const signedRoute = { signedLink: 'analytics-data' } as const;

/**
 * Sends the answer to one question about one organisation as JSON text: the kept text when the cache has it, else
 * the answer checked against its core schema (what the response serialiser would do) and kept.
 */
async function sendAnswer<T>(
  reply: FastifyReply,
  cache: AnalyticsAnswerCache,
  organisationId: string,
  question: string,
  schema: ZodType<T>,
  answer: () => Promise<T>,
): Promise<FastifyReply> {
  const text = await cache.answer(organisationId, question, async () => JSON.stringify(schema.parse(await answer())));
  // JSON text is sent as it is (Fastify serialises objects only): it was checked against the schema when made.
  return reply.headers(privateData).type('application/json; charset=utf-8').send(text);
}

/** The console's analytics calls (spec §7): the session, the counts and the chart data. */
export function analyticsRoutes(signer: UrlSigner, cache: AnalyticsAnswerCache): FastifyPluginAsyncZod {
  return async (app) => {
    const checkSession = createLinkSessionCheck(app.db);
    /** A data request's signed query: signed for this organisation, not expired, its session alive and admin. */
    const verifyLink = async (organisationId: string, query: { session?: string; expires?: string; signature?: string }) =>
      checkSession(signer.verify(organisationId, query), organisationId);
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
          config: signedRoute,
          schema: {
            tags: ['analytics'],
            summary: `Count of ${subject} (signed URL); with from/to, those created between them`,
            params: z.object({ orgId }),
            querystring: analyticsCountQuerySchema,
            response: { 200: analyticsCountSchema },
          },
        },
        async (request, reply) => {
          const { orgId: organisationId } = request.params;
          await verifyLink(organisationId, request.query);
          const range = request.query.from || request.query.to ? resolveRange(request.query) : null;
          return sendAnswer(reply, cache, organisationId, `count ${subject} ${range?.from ?? ''} ${range?.to ?? ''}`, analyticsCountSchema, () =>
            readCount(app.db, organisationId, subject, range),
          );
        },
      );
    }

    app.get(
      '/analytics/users/organisations/:orgId/books/count/periodic',
      {
        config: signedRoute,
        schema: {
          tags: ['analytics'],
          summary: 'Books created per day, week or month (signed URL)',
          params: z.object({ orgId }),
          querystring: analyticsCountQuerySchema,
          response: { 200: analyticsPeriodicCountSchema },
        },
      },
      async (request, reply) => {
        const { orgId: organisationId } = request.params;
        await verifyLink(organisationId, request.query);
        const period = request.query.period ?? 'w';
        const range = resolveRange(request.query);
        return sendAnswer(reply, cache, organisationId, `books periodic ${period} ${range.from} ${range.to}`, analyticsPeriodicCountSchema, () =>
          readBooksPeriodic(app.db, organisationId, period, range),
        );
      },
    );

    app.get(
      '/analytics/data/app/organisations/:orgId/breakdown.json',
      {
        config: signedRoute,
        schema: {
          tags: ['analytics'],
          summary: "The organisation's own figures and each organisation directly below it (a district's schools) (signed URL)",
          description:
            'One row for the organisation itself (its own figures alone), then one per organisation directly below it with every ' +
            'organisation under that one, by name; the rows add up to the organisation\'s counts. Students, libraries and books ' +
            'are all-time; books created, sessions and session seconds within from/to (defaults as for the charts).',
          params: z.object({ orgId }),
          querystring: analyticsRangeQuerySchema,
          response: { 200: analyticsBreakdownSchema },
        },
      },
      async (request, reply) => {
        const { orgId: organisationId } = request.params;
        await verifyLink(organisationId, request.query);
        const range = resolveRange(request.query);
        return sendAnswer(reply, cache, organisationId, `breakdown ${range.from} ${range.to}`, analyticsBreakdownSchema, () =>
          readBreakdown(app.db, organisationId, range),
        );
      },
    );

    app.get(
      '/analytics/data/app/organisations/:orgId/:file',
      {
        config: signedRoute,
        schema: {
          tags: ['analytics'],
          summary: 'A chart metric over the whole range, by name (signed URL)',
          params: z.object({ orgId, file: metricFile }),
          querystring: analyticsRangeQuerySchema,
          response: { 200: analyticsSeriesSchema },
        },
      },
      async (request, reply) => {
        const { orgId: organisationId } = request.params;
        await verifyLink(organisationId, request.query);
        const metric = request.params.file.replace(/\.json$/, '') as AnalyticsMetric;
        const range = resolveRange(request.query);
        return sendAnswer(reply, cache, organisationId, `series ${metric} total ${range.from} ${range.to}`, analyticsSeriesSchema, () =>
          readSeries(app.db, organisationId, metric, 'total', range),
        );
      },
    );

    app.get(
      '/analytics/data/app/organisations/:orgId/:metric/:file',
      {
        config: signedRoute,
        schema: {
          tags: ['analytics'],
          summary: 'A chart metric per day, ISO week or month (signed URL)',
          params: z.object({ orgId, metric: z.enum(ANALYTICS_METRICS), file: granularityFile }),
          querystring: analyticsRangeQuerySchema,
          response: { 200: analyticsSeriesSchema },
        },
      },
      async (request, reply) => {
        const { orgId: organisationId, metric } = request.params;
        await verifyLink(organisationId, request.query);
        const granularity = request.params.file.replace(/\.json$/, '') as AnalyticsGranularity;
        const range = resolveRange(request.query);
        return sendAnswer(reply, cache, organisationId, `series ${metric} ${granularity} ${range.from} ${range.to}`, analyticsSeriesSchema, () =>
          readSeries(app.db, organisationId, metric, granularity, range),
        );
      },
    );
  };
}
