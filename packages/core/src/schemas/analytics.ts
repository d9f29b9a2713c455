import { z } from 'zod';

/**
 * Analytics (spec §2 "Analytics", §3 "Analytics session", §7 the {analytics} calls). Contracts the spec
 * leaves open are described in docs/analytics.md.
 */

/** The chart metrics served under data/app/organisations/{orgId}/{metric}[/daily|/weekly|/monthly].json. */
export const ANALYTICS_METRICS = ['sessions', 'sessions-duration', 'sessions-by-os', 'sessions-by-provider', 'email-domains'] as const;
const analyticsMetricSchema = z.enum(ANALYTICS_METRICS);
export type AnalyticsMetric = z.infer<typeof analyticsMetricSchema>;

/** Metrics whose rows carry values by name (operating system, sign-in provider, e-mail domain). */
export const NAMED_ANALYTICS_METRICS: readonly AnalyticsMetric[] = ['sessions-by-os', 'sessions-by-provider', 'email-domains'];

/** Series granularity in the data URLs. */
export const ANALYTICS_GRANULARITIES = ['daily', 'weekly', 'monthly'] as const;
export type AnalyticsGranularity = (typeof ANALYTICS_GRANULARITIES)[number];

/** Period letter of the count queries: day, week, month. */
const analyticsPeriodSchema = z.enum(['d', 'w', 'm']);
export type AnalyticsPeriod = z.infer<typeof analyticsPeriodSchema>;

/** The most events one intake request may carry. */
const ANALYTICS_BATCH_MAX = 1000;
/** The longest session an event may report (a day). */
const ANALYTICS_MAX_DURATION_SECONDS = 86_400;

const yyyymmddText = z.string().regex(/^\d{8}$/, 'must be a date written YYYYMMDD');
const domainPattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

// ---- Intake (server to server) ----

/**
 * One session event the product reports. `id` makes intake idempotent: an event whose id the
 * organisation already has is skipped, so a retried batch is never counted twice.
 */
export const analyticsEventSchema = z.object({
  /** The product's own id of the event (e.g. a UUID); unique per organisation. */
  id: z.string().trim().min(1, 'is required').max(128, 'must be at most 128 characters'),
  organisationId: z.string().trim().min(1, 'is required').max(128, 'must be at most 128 characters'),
  /** The signed-in user; null for an anonymous session. */
  userId: z.string().trim().min(1).max(128, 'must be at most 128 characters').nullable().optional(),
  userKind: z.enum(['student', 'teacher'], { error: "must be 'student' or 'teacher'" }),
  /** When the session started, ISO 8601 with a zone, e.g. 2024-03-05T08:15:00Z. */
  startedAt: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date and time with a zone, e.g. 2024-03-05T08:15:00Z' }),
  durationSeconds: z
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(0, 'must not be negative')
    .max(ANALYTICS_MAX_DURATION_SECONDS, `must be at most ${ANALYTICS_MAX_DURATION_SECONDS} seconds`),
  /** Operating system, e.g. Windows, ChromeOS, macOS, iOS, Android. */
  os: z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
  /** Sign-in provider, e.g. google, office365, password, clever. */
  provider: z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
  /** E-mail domain of the user, lower case; null when the sign-in carries no e-mail. */
  emailDomain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(domainPattern, 'must be an e-mail domain such as school.example.org')
    .nullable()
    .optional(),
});

/** POST {analytics}/events: up to 1,000 events; each is checked on its own (see analyticsIntakeRefusalSchema). */
export const analyticsIntakeBodySchema = z.object({
  events: z
    .array(z.unknown())
    .min(1, 'must hold at least one event')
    .max(ANALYTICS_BATCH_MAX, `must hold at most ${ANALYTICS_BATCH_MAX} events`),
});

export const analyticsIntakeResultSchema = z.object({
  /** Events in the batch. */
  received: z.number(),
  /** Events recorded now. */
  accepted: z.number(),
  /** Events already recorded earlier (same id), skipped. */
  duplicates: z.number(),
});
export type AnalyticsIntakeResult = z.infer<typeof analyticsIntakeResultSchema>;

/** A refused batch: nothing was written; one entry per bad event. */
export const analyticsIntakeRefusalSchema = z.object({
  code: z.literal('invalid_events'),
  message: z.string(),
  errors: z.array(
    z.object({
      /** Position of the event in the batch, from 0. */
      index: z.number(),
      /** The event's id when it had a readable one. */
      eventId: z.string().nullable(),
      /** What is wrong, e.g. 'durationSeconds: must not be negative'. */
      reason: z.string(),
    }),
  ),
});

// ---- The console's calls ----

const seriesUrlsSchema = z.object({ total: z.string(), daily: z.string(), weekly: z.string(), monthly: z.string() });

/**
 * GET {analytics}/sessions/app/organisations/{orgId} (spec §3 "Analytics session"). Every URL carries
 * the same signed query (expires, signature); it stops working after refreshIn seconds.
 */
export const analyticsSessionSchema = z.object({
  /** Seconds until the signed URLs expire; the console renews the session before then. */
  refreshIn: z.number(),
  /** The organisation the session and its URLs are for. */
  usersOrganisation: z.object({ id: z.string(), name: z.string() }),
  /** The signed query text alone, e.g. 'session=…&expires=1700000000&signature=…'. */
  signedQuery: z.string(),
  urls: z.object({
    studentsCount: z.string(),
    librariesCount: z.string(),
    booksCount: z.string(),
    booksCountPeriodic: z.string(),
    /** The organisation's own figures and each organisation directly below it (a district's schools): analyticsBreakdownSchema. */
    breakdown: z.string(),
    data: z.object({
      sessions: seriesUrlsSchema,
      'sessions-duration': seriesUrlsSchema,
      'sessions-by-os': seriesUrlsSchema,
      'sessions-by-provider': seriesUrlsSchema,
      'email-domains': seriesUrlsSchema,
    }),
  }),
});
export type AnalyticsSession = z.infer<typeof analyticsSessionSchema>;

/** The signed query every data request carries. */
const analyticsSignedQuerySchema = z.object({
  /** The session that asked for the link: the link works while it lives and keeps its access (docs/security.md). */
  session: z.string().max(200).optional(),
  expires: z.string().max(20).optional(),
  signature: z.string().max(200).optional(),
});

/** Date bounds of a data request, both inclusive, as YYYYMMDD (UTC days). */
export const analyticsRangeQuerySchema = analyticsSignedQuerySchema.extend({
  from: yyyymmddText.optional(),
  to: yyyymmddText.optional(),
});

/** The count queries: optional period and bounds (only what was created between from and to is counted). */
export const analyticsCountQuerySchema = analyticsRangeQuerySchema.extend({ period: analyticsPeriodSchema.optional() });

/** students/count, libraries/count, books/count. */
export const analyticsCountSchema = z.object({ count: z.number() });
export type AnalyticsCount = z.infer<typeof analyticsCountSchema>;

/** books/count/periodic: books created per day, week or month. */
export const analyticsPeriodicCountSchema = z.object({
  period: analyticsPeriodSchema,
  from: z.string(),
  to: z.string(),
  rows: z.array(z.object({ date: z.string(), count: z.number() })),
});
export type AnalyticsPeriodicCount = z.infer<typeof analyticsPeriodicCountSchema>;

/**
 * One row of a chart: the first day of its period (YYYY-MM-DD), the values by name (operating
 * system, provider or domain; empty for sessions and sessions-duration), and students, teachers and total.
 */
const analyticsRowSchema = z.object({
  date: z.string(),
  values: z.record(z.string(), z.number()),
  students: z.number(),
  teachers: z.number(),
  total: z.number(),
});

/** data/app/organisations/{orgId}/{metric}[/daily|/weekly|/monthly].json */
export const analyticsSeriesSchema = z.object({
  metric: analyticsMetricSchema,
  /** 'total' when the URL has no /daily, /weekly or /monthly: one row for the whole range. */
  granularity: z.enum(['total', ...ANALYTICS_GRANULARITIES]),
  from: z.string(),
  to: z.string(),
  /** Names of the values, largest total first. */
  names: z.array(z.string()),
  rows: z.array(analyticsRowSchema),
});
export type AnalyticsSeries = z.infer<typeof analyticsSeriesSchema>;

/**
 * One row of an organisation's breakdown: the organisation's own figures, or one organisation directly below it
 * (a district's school) with every organisation under that one. Students, libraries and books are all-time; books
 * created, sessions and session seconds are within the range.
 */
const analyticsBreakdownRowSchema = z.object({
  organisationId: z.string(),
  organisationName: z.string(),
  /** True for the organisation asked about (its own figures alone); false for an organisation below it. */
  own: z.boolean(),
  students: z.number(),
  libraries: z.number(),
  books: z.number(),
  booksCreated: z.number(),
  sessions: z.number(),
  sessionSeconds: z.number(),
});
export type AnalyticsBreakdownRow = z.infer<typeof analyticsBreakdownRowSchema>;

/**
 * data/app/organisations/{orgId}/breakdown.json: the organisation's own row first, then one row per organisation
 * directly below it, by name. The rows add up to the organisation's tiles.
 */
export const analyticsBreakdownSchema = z.object({
  from: z.string(),
  to: z.string(),
  organisations: z.array(analyticsBreakdownRowSchema),
});
export type AnalyticsBreakdown = z.infer<typeof analyticsBreakdownSchema>;
