import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { analyticsIntakeBodySchema, analyticsIntakeRefusalSchema, analyticsIntakeResultSchema } from '@quire/core';
import { z } from 'zod';
import type { DB } from '../../db/types.js';
import { countRequest, readCount } from '../../db/rate-limit.repository.js';
import { AppError, appError, unauthorised } from '../../errors.js';
import type { AnalyticsAnswerCache } from './analytics-cache.js';
import { ingestEvents, organisationsCounting } from './analytics.service.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `Bearer <key>` with one space and nothing around it; the scheme's case is free (RFC 9110 section 11.1).
 * Node drops whitespace at the ends of a header value before we see it (it is not part of the value).
 */
const BEARER = /^Bearer ([^\s,]+)$/i;

/** Wrong keys one address may send before it waits (docs/security.md, "Sign-in limits"). */
const INTAKE_KEY_LIMIT = { max: 10, windowMs: 15 * 60_000 };

/**
 * Compares the request's bearer key with ANALYTICS_INGEST_KEY in constant time. Wrong keys are counted per
 * address in the database (every copy of the server shares the count); past the budget the address is
 * refused 429 even with the right key, so guessing gains nothing from the answers.
 */
async function checkIngestKey(request: FastifyRequest, db: Kysely<DB>, key: string | undefined): Promise<void> {
  // Switched off, the intake does not exist: 404, never a 5xx a caller could provoke.
  if (!key) throw new AppError(404, 'analytics_intake_off', 'Analytics intake is not configured on this server (ANALYTICS_INGEST_KEY)');
  const match = BEARER.exec(request.headers.authorization ?? '');
  const valid = !!match?.[1] && timingSafeEqual(digest(match[1]), digest(key));
  const limit = INTAKE_KEY_LIMIT;
  const counter = `intake-key-addr|${request.ip}`;
  // A right key costs one read; only a wrong one is counted.
  const { hits } = valid ? await readCount(db, counter, limit.windowMs) : await countRequest(db, counter, limit.windowMs);
  if (hits > limit.max) throw appError('too_many_requests');
  if (!valid) throw unauthorised('A valid analytics intake key is required', 'analytics_key_invalid');
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
      onRequest: async (request) => checkIngestKey(request, app.db, app.env.ANALYTICS_INGEST_KEY),
      schema: {
        tags: ['analytics'],
        summary: 'Report session events (server to server)',
        description:
          'Authenticated with `Authorization: Bearer <ANALYTICS_INGEST_KEY>`; 10 wrong keys from an address in 15 minutes ' +
          'make it wait (429 `too_many_requests`). Up to 1,000 events a request. ' +
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
      // are out of date now (analytics-cache.ts), and so are those of every organisation above them, whose figures
      // include theirs.
      cache.forget(await organisationsCounting(app.db, request.body.events.map((e) => (e as { organisationId: string }).organisationId)));
      return result;
    },
  );
};
