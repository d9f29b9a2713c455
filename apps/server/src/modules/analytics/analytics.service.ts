import type { Kysely } from 'kysely';
import {
  ANALYTICS_GRANULARITIES, ANALYTICS_METRICS, CHART_HISTORY_MONTHS, NAMED_ANALYTICS_METRICS, analyticsEventSchema, parseYyyymmdd,
  type AnalyticsBreakdown, type AnalyticsCount, type AnalyticsGranularity, type AnalyticsIntakeResult, type AnalyticsMetric, type AnalyticsPeriod,
  type AnalyticsPeriodicCount, type AnalyticsSeries, type AnalyticsSession,
} from '@quire/core';
import type { DB } from '../../db/types.js';
import { appError } from '../../errors.js';
import type { Actor } from '../access/actor.js';
import { requireOrgAccess } from '../access/org-access.js';
import {
  booksCreatedPerPeriod, countBooks, countLibraries, countStudents, existingOrganisations, insertEventsWithRollups,
  organisationsAndAbove, readBreakdown as readBreakdownRows, readRollup, type StoredEvent,
} from './analytics.repository.js';
import type { UrlSigner } from './signed-url.js';

const DAY = 86_400_000;
/** Events may start at most this far in the future (clocks of devices drift). */
const FUTURE_SLACK_MS = DAY;
/** No event is older than the product: earlier dates are mistakes (year 0001, a zeroed clock) that would stretch every chart. */
const EARLIEST_EVENT = '2000-01-01';
const EARLIEST_EVENT_MS = Date.parse(`${EARLIEST_EVENT}T00:00:00Z`);
/** The history charts reach back CHART_HISTORY_MONTHS; requests may ask for up to ten years. */
const MAX_RANGE_DAYS = 3660;

// ---------------------------------------------------------------- intake

interface EventRefusal {
  index: number;
  eventId: string | null;
  reason: string;
}

function idOf(raw: unknown): string | null {
  if (raw && typeof raw === 'object' && 'id' in raw) {
    const id = (raw as { id: unknown }).id;
    if (typeof id === 'string' && id.length <= 128) return id;
  }
  return null;
}

/**
 * Checks every event of a batch and stores them all, or none: a batch with any bad event is refused
 * (400 invalid_events, one reason per bad event). Events already stored are skipped (idempotent by id).
 */
export async function ingestEvents(db: Kysely<DB>, events: readonly unknown[], now = Date.now()): Promise<AnalyticsIntakeResult> {
  const errors: EventRefusal[] = [];
  const checked: { index: number; event: StoredEvent }[] = [];
  events.forEach((raw, index) => {
    const parsed = analyticsEventSchema.safeParse(raw);
    if (!parsed.success) {
      const reason = parsed.error.issues.map((i) => `${i.path.join('.') || 'event'}: ${i.message}`).join('; ');
      errors.push({ index, eventId: idOf(raw), reason });
      return;
    }
    const e = parsed.data;
    const started = Date.parse(e.startedAt);
    if (started > now + FUTURE_SLACK_MS) {
      errors.push({ index, eventId: e.id, reason: 'startedAt: must not be in the future' });
      return;
    }
    if (!(started >= EARLIEST_EVENT_MS)) {
      errors.push({ index, eventId: e.id, reason: `startedAt: must not be before ${EARLIEST_EVENT}` });
      return;
    }
    checked.push({
      index,
      event: {
        eventId: e.id, organisationId: e.organisationId, occurredAt: new Date(started).toISOString(), userId: e.userId ?? null,
        userKind: e.userKind, os: e.os, provider: e.provider, emailDomain: e.emailDomain ?? null, durationSeconds: e.durationSeconds,
      },
    });
  });
  const known = await existingOrganisations(db, [...new Set(checked.map((c) => c.event.organisationId))]);
  for (const c of checked) {
    if (!known.has(c.event.organisationId)) errors.push({ index: c.index, eventId: c.event.eventId, reason: 'organisationId: no such organisation' });
  }
  if (errors.length) {
    errors.sort((a, b) => a.index - b.index);
    throw appError('invalid_events', { message: `${errors.length} of ${events.length} events are not valid; nothing was recorded`, details: { errors } });
  }
  const stored = checked.map((c) => c.event);
  const accepted = await withDeadlockRetry(() => db.transaction().execute((trx) => insertEventsWithRollups(trx, stored)));
  return { received: events.length, accepted, duplicates: events.length - accepted };
}

/** A deadlock or serialisation failure rolled everything back; trying again is safe (idempotent by id). */
async function withDeadlockRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || (code !== '40P01' && code !== '40001')) throw error;
    }
  }
}

// ---------------------------------------------------------------- session

const DATA_PATH = (orgId: string) => `/analytics/data/app/organisations/${encodeURIComponent(orgId)}`;
const SERIES_PATH = (orgId: string, metric: AnalyticsMetric) => `${DATA_PATH(orgId)}/${metric}`;
const USERS_PATH = (orgId: string) => `/analytics/users/organisations/${encodeURIComponent(orgId)}`;

/**
 * The analytics session of spec §3: refreshIn, usersOrganisation and the signed URLs. Admins only: an admin of a
 * district is an admin of its schools, so the district's figures (which include its schools') are theirs to see.
 */
export async function createSession(db: Kysely<DB>, signer: UrlSigner, actor: Actor, organisationId: string, now = Date.now()): Promise<AnalyticsSession> {
  const { organisation } = await requireOrgAccess(db, actor, organisationId, 'admin');
  // Tied to the session that asks: its links stop working when it ends or loses access (link-session.ts).
  const { query } = signer.sign(organisationId, actor.sessionId ?? '', now);
  const signed = (path: string) => `${path}?${query}`;
  const data = Object.fromEntries(
    ANALYTICS_METRICS.map((metric) => [
      metric,
      {
        total: signed(`${SERIES_PATH(organisationId, metric)}.json`),
        ...Object.fromEntries(ANALYTICS_GRANULARITIES.map((g) => [g, signed(`${SERIES_PATH(organisationId, metric)}/${g}.json`)])),
      },
    ]),
  ) as AnalyticsSession['urls']['data'];
  return {
    refreshIn: signer.ttlSeconds,
    usersOrganisation: { id: organisationId, name: organisation.name },
    signedQuery: query,
    urls: {
      studentsCount: signed(`${USERS_PATH(organisationId)}/students/count`),
      librariesCount: signed(`${USERS_PATH(organisationId)}/libraries/count`),
      booksCount: signed(`${USERS_PATH(organisationId)}/books/count`),
      booksCountPeriodic: signed(`${USERS_PATH(organisationId)}/books/count/periodic`),
      breakdown: signed(`${DATA_PATH(organisationId)}/breakdown.json`),
      data,
    },
  };
}

// ---------------------------------------------------------------- data

export interface DayRange {
  /** 'YYYY-MM-DD', inclusive. */
  from: string;
  to: string;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The first day of the month 18 months before `to`'s month: the charts' history. */
function historyStart(to: Date): Date {
  return new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - CHART_HISTORY_MONTHS, 1));
}

/** YYYYMMDD bounds to a day range; missing bounds: today (UTC) and 18 months back. 400 on bad dates. */
export function resolveRange(query: { from?: string; to?: string }, now = Date.now()): DayRange {
  const parse = (text: string | undefined, field: string) => {
    if (text === undefined) return undefined;
    const d = parseYyyymmdd(text);
    if (!d) throw appError('invalid_date', { message: `${field}: must be a real date written YYYYMMDD` });
    return d;
  };
  const to = parse(query.to, 'to') ?? new Date(Math.floor(now / DAY) * DAY);
  const from = parse(query.from, 'from') ?? historyStart(to);
  if (from.getTime() > to.getTime()) throw appError('invalid_range');
  if ((to.getTime() - from.getTime()) / DAY > MAX_RANGE_DAYS) throw appError('invalid_range', { message: `The range must not be longer than ${MAX_RANGE_DAYS} days` });
  return { from: isoDay(from), to: isoDay(to) };
}

function* periodStarts(granularity: AnalyticsGranularity, range: DayRange): Generator<string> {
  const end = Date.parse(`${range.to}T00:00:00Z`);
  let d = new Date(`${range.from}T00:00:00Z`);
  if (granularity === 'weekly') d = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY);
  if (granularity === 'monthly') d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  while (d.getTime() <= end) {
    yield isoDay(d);
    d = granularity === 'daily' ? new Date(d.getTime() + DAY)
      : granularity === 'weekly' ? new Date(d.getTime() + 7 * DAY)
        : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  }
}

/**
 * A chart's figures from the rollups: one row per period (days, ISO weeks or months; periods without
 * sessions as zeros once the range has any), or one row for the whole range. Empty rows: no data.
 */
export async function readSeries(
  db: Kysely<DB>,
  organisationId: string,
  metric: AnalyticsMetric,
  granularity: 'total' | AnalyticsGranularity,
  range: DayRange,
): Promise<AnalyticsSeries> {
  const found = await readRollup(db, organisationId, metric, granularity, range.from, range.to);
  const named = NAMED_ANALYTICS_METRICS.includes(metric);
  const byDate = new Map<string, AnalyticsSeries['rows'][number]>();
  const nameTotals = new Map<string, number>();
  for (const r of found) {
    let row = byDate.get(r.date);
    if (!row) byDate.set(r.date, (row = { date: r.date, values: {}, students: 0, teachers: 0, total: 0 }));
    if (named) {
      row.values[r.name] = (row.values[r.name] ?? 0) + r.total;
      nameTotals.set(r.name, (nameTotals.get(r.name) ?? 0) + r.total);
    }
    row.students += r.students;
    row.teachers += r.teachers;
    row.total += r.total;
  }
  const names = [...nameTotals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([n]) => n);
  let rows = [...byDate.values()];
  if (granularity !== 'total' && rows.length) {
    rows = [...periodStarts(granularity, range)].map((date) => byDate.get(date) ?? { date, values: {}, students: 0, teachers: 0, total: 0 });
  }
  return { metric, granularity, from: range.from.replace(/-/g, ''), to: range.to.replace(/-/g, ''), names, rows };
}

export type CountSubject = 'students' | 'libraries' | 'books';

/** students/count, libraries/count, books/count: everything, or what was created in the range when one is given (resolveRange). */
export async function readCount(db: Kysely<DB>, organisationId: string, subject: CountSubject, range: DayRange | null): Promise<AnalyticsCount> {
  const count = subject === 'students' ? countStudents : subject === 'libraries' ? countLibraries : countBooks;
  return { count: await count(db, organisationId, range) };
}

/** books/count/periodic: books created per day, week or month in the range (the route's default: weekly, 18 months). */
export async function readBooksPeriodic(db: Kysely<DB>, organisationId: string, period: AnalyticsPeriod, range: DayRange): Promise<AnalyticsPeriodicCount> {
  const granularity = ({ d: 'daily', w: 'weekly', m: 'monthly' } as const)[period];
  const found = await booksCreatedPerPeriod(db, organisationId, granularity, range.from, range.to);
  const byDate = new Map(found.map((r) => [r.date, r.count]));
  const rows = found.length ? [...periodStarts(granularity, range)].map((date) => ({ date, count: byDate.get(date) ?? 0 })) : [];
  return { period, from: range.from.replace(/-/g, ''), to: range.to.replace(/-/g, ''), rows };
}

/** breakdown.json: the organisation's own figures and each organisation directly below it (readBreakdown in the repository). */
export async function readBreakdown(db: Kysely<DB>, organisationId: string, range: DayRange): Promise<AnalyticsBreakdown> {
  const organisations = await readBreakdownRows(db, organisationId, range.from, range.to);
  return { from: range.from.replace(/-/g, ''), to: range.to.replace(/-/g, ''), organisations };
}

/** The organisations whose figures the events change: theirs and every organisation above them (a district sums its schools). */
export async function organisationsCounting(db: Kysely<DB>, organisationIds: Iterable<string>): Promise<string[]> {
  return organisationsAndAbove(db, [...new Set(organisationIds)]);
}
