import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';

/** An event ready to store: checked, with its organisation known. */
export interface StoredEvent {
  eventId: string;
  organisationId: string;
  occurredAt: string;
  userId: string | null;
  userKind: 'student' | 'teacher';
  os: string;
  provider: string;
  emailDomain: string | null;
  durationSeconds: number;
}

/** The organisations of the list that exist. */
export async function existingOrganisations(db: Kysely<DB>, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('organisations').select('id').where('id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

/** The organisations of the list and every organisation above them: whose figures include theirs. */
export async function organisationsAndAbove(db: Kysely<DB>, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('organisation_ancestors').select('ancestor_id').distinct().where('organisation_id', 'in', [...ids]).execute();
  return rows.map((r) => r.ancestor_id);
}

/**
 * The organisations whose figures make up an organisation's analytics: itself and every organisation under it (a
 * district's schools), through the tree's closure. A school has only itself, so its figures are its own.
 */
const subtreeOf = (organisationId: string) => sql`(SELECT organisation_id FROM organisation_ancestors WHERE ancestor_id = ${organisationId})`;

/**
 * Stores the events and brings the daily rollups up to date in ONE statement: the events are inserted
 * with ON CONFLICT DO NOTHING, and the rollups are added to from exactly the rows that insert returned.
 * An event already stored (a retried batch) returns no row, so it can never be counted twice; a failure
 * rolls back the events and the rollups together. Rows are locked in key order, so concurrent batches
 * of one organisation wait for each other instead of deadlocking.
 */
export async function insertEventsWithRollups(db: Kysely<DB>, events: readonly StoredEvent[]): Promise<number> {
  const col = <K extends keyof StoredEvent>(key: K) => events.map((e) => e[key]);
  const day = sql`(occurred_at AT TIME ZONE 'UTC')::date`;
  const { rows } = await sql<{ accepted: string }>`
    WITH input AS (
      SELECT * FROM unnest(
        ${col('eventId')}::text[], ${col('organisationId')}::text[], ${col('occurredAt')}::timestamptz[], ${col('userId')}::text[],
        ${col('userKind')}::text[], ${col('os')}::text[], ${col('provider')}::text[], ${col('emailDomain')}::text[], ${col('durationSeconds')}::int4[]
      ) AS t(event_id, organisation_id, occurred_at, user_id, user_kind, os, provider, email_domain, duration_seconds)
    ), inserted AS (
      INSERT INTO analytics_events (event_id, organisation_id, occurred_at, user_id, user_kind, os, provider, email_domain, duration_seconds)
      SELECT * FROM input ORDER BY organisation_id, event_id
      ON CONFLICT (organisation_id, event_id) DO NOTHING
      RETURNING organisation_id, occurred_at, user_id, user_kind, os, provider, email_domain, duration_seconds
    ), new_users AS (
      INSERT INTO analytics_users (organisation_id, user_kind, user_id, first_seen_at)
      SELECT organisation_id, user_kind, user_id, min(occurred_at) FROM inserted WHERE user_id IS NOT NULL
      GROUP BY organisation_id, user_kind, user_id ORDER BY organisation_id, user_kind, user_id
      ON CONFLICT DO NOTHING
      RETURNING organisation_id, user_kind, first_seen_at
    ), deltas AS (
      SELECT organisation_id, 'sessions' AS metric, ${day} AS day, '' AS name,
             (user_kind = 'student')::int AS students, (user_kind = 'teacher')::int AS teachers, 1 AS total FROM inserted
      UNION ALL
      SELECT organisation_id, 'sessions-duration', ${day}, '',
             CASE WHEN user_kind = 'student' THEN duration_seconds ELSE 0 END,
             CASE WHEN user_kind = 'teacher' THEN duration_seconds ELSE 0 END, duration_seconds FROM inserted
      UNION ALL
      SELECT organisation_id, 'sessions-by-os', ${day}, os, (user_kind = 'student')::int, (user_kind = 'teacher')::int, 1 FROM inserted
      UNION ALL
      SELECT organisation_id, 'sessions-by-provider', ${day}, provider, (user_kind = 'student')::int, (user_kind = 'teacher')::int, 1 FROM inserted
      UNION ALL
      SELECT organisation_id, 'email-domains', ${day}, email_domain, (user_kind = 'student')::int, (user_kind = 'teacher')::int, 1
      FROM inserted WHERE email_domain IS NOT NULL
      UNION ALL
      SELECT organisation_id, 'users-first-seen', (first_seen_at AT TIME ZONE 'UTC')::date, '',
             (user_kind = 'student')::int, (user_kind = 'teacher')::int, 1 FROM new_users
    ), rolled AS (
      INSERT INTO analytics_daily AS d (organisation_id, metric, day, name, students, teachers, total)
      SELECT organisation_id, metric, day, name, sum(students), sum(teachers), sum(total) FROM deltas
      GROUP BY organisation_id, metric, day, name ORDER BY organisation_id, metric, day, name
      ON CONFLICT (organisation_id, metric, day, name) DO UPDATE
        SET students = d.students + excluded.students, teachers = d.teachers + excluded.teachers, total = d.total + excluded.total
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM inserted) AS accepted, (SELECT count(*) FROM rolled) AS rolled`.execute(db);
  return Number(rows[0]?.accepted ?? 0);
}

export interface DailyRollupRow {
  date: string;
  name: string;
  students: number;
  teachers: number;
  total: number;
}

/** Midnight UTC starting the day 'YYYY-MM-DD', and the midnight ending it. */
const startOf = (day: string) => sql`(${day}::timestamp AT TIME ZONE 'UTC')`;
const endOf = (day: string) => sql`((${day}::timestamp + interval '1 day') AT TIME ZONE 'UTC')`;

const UNITS = { daily: 'day', weekly: 'week', monthly: 'month' } as const;

/**
 * One metric of one organisation and every organisation under it, from the daily rollups (never the raw events),
 * summed per day, ISO week (from Monday) or month, or over the whole range ('total'), between two UTC days inclusive.
 */
export async function readRollup(
  db: Kysely<DB>,
  organisationId: string,
  metric: string,
  granularity: 'total' | keyof typeof UNITS,
  from: string,
  to: string,
): Promise<DailyRollupRow[]> {
  const bucket =
    granularity === 'total'
      ? sql<string>`${from}::text`
      : granularity === 'daily'
        ? sql<string>`to_char(day, 'YYYY-MM-DD')`
        : sql<string>`to_char(date_trunc(${UNITS[granularity]}, day::timestamp), 'YYYY-MM-DD')`;
  const { rows } = await sql<{ date: string; name: string; students: string; teachers: string; total: string }>`
    SELECT ${bucket} AS date, name, sum(students) AS students, sum(teachers) AS teachers, sum(total) AS total
    FROM analytics_daily
    WHERE organisation_id IN ${subtreeOf(organisationId)} AND metric = ${metric} AND day BETWEEN ${from}::date AND ${to}::date
    GROUP BY 1, name ORDER BY 1, name`.execute(db);
  return rows.map((r) => ({ date: r.date, name: r.name, students: Number(r.students), teachers: Number(r.teachers), total: Number(r.total) }));
}

/**
 * The students of the organisation and of every organisation under it (added between the bounds when given): each
 * one's student roster (the portfolios' students) and its active student members (learners from a learning
 * platform, converted students), a person on both in one organisation counted once (same e-mail). Not the usage
 * events: a student who never opened the app still counts.
 */
export async function countStudents(db: Kysely<DB>, organisationId: string, range: { from: string; to: string } | null): Promise<number> {
  const within = (column: string) => (range ? sql`AND ${sql.ref(column)} >= ${startOf(range.from)} AND ${sql.ref(column)} < ${endOf(range.to)}` : sql``);
  const { rows } = await sql<{ n: string | null }>`
    SELECT (SELECT count(*) FROM students s WHERE s.organisation_id IN ${subtreeOf(organisationId)} ${within('s.created_at')})
         + (SELECT count(*) FROM members m
            WHERE m.organisation_id IN ${subtreeOf(organisationId)} AND m.is_student AND m.revoked_at IS NULL ${within('m.created_at')}
              AND NOT EXISTS (SELECT 1 FROM students s WHERE s.organisation_id = m.organisation_id AND s.email = m.email)) AS n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Libraries in use (not archived) of the organisation and every organisation under it, created between the bounds when given. */
export async function countLibraries(db: Kysely<DB>, organisationId: string, range: { from: string; to: string } | null): Promise<number> {
  let query = db.selectFrom('libraries').select((eb) => eb.fn.countAll<string>().as('n')).where(sql<boolean>`organisation_id IN ${subtreeOf(organisationId)}`).where('archived_at', 'is', null);
  if (range) query = query.where(sql<boolean>`created_at >= ${startOf(range.from)} AND created_at < ${endOf(range.to)}`);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

/** Books of the organisation and every organisation under it (created between the bounds when given), from the books-created rollup. */
export async function countBooks(db: Kysely<DB>, organisationId: string, range: { from: string; to: string } | null): Promise<number> {
  const { rows } = await sql<{ n: string | null }>`
    SELECT sum(total) AS n FROM analytics_daily
    WHERE organisation_id IN ${subtreeOf(organisationId)} AND metric = 'books-created'
      ${range ? sql`AND day BETWEEN ${range.from}::date AND ${range.to}::date` : sql``}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Books created per day, week or month (UTC) between the bounds, from the books-created rollup (the organisation and every one under it). */
export async function booksCreatedPerPeriod(
  db: Kysely<DB>,
  organisationId: string,
  granularity: keyof typeof UNITS,
  from: string,
  to: string,
): Promise<{ date: string; count: number }[]> {
  const rows = await readRollup(db, organisationId, 'books-created', granularity, from, to);
  return rows.filter((r) => r.total !== 0).map((r) => ({ date: r.date, count: r.total }));
}

interface BreakdownRow {
  organisationId: string;
  organisationName: string;
  own: boolean;
  students: number;
  libraries: number;
  books: number;
  booksCreated: number;
  sessions: number;
  sessionSeconds: number;
}

/**
 * An organisation's figures split by where they come from, in one statement: a row for the organisation's own
 * (itself alone) and a row for each organisation directly below it with every organisation under that one (a
 * district's school; a region's district with its schools). The same rules as the tiles (countStudents,
 * countLibraries, countBooks, the rollups), each organisation's figures counted in exactly one row, so the rows add up
 * to the organisation's tiles. Students, libraries and books are all-time; books created, sessions and session
 * seconds between the two UTC days.
 */
export async function readBreakdown(db: Kysely<DB>, organisationId: string, from: string, to: string): Promise<BreakdownRow[]> {
  const { rows } = await sql<{
    id: string; name: string; own: boolean; students: string; libraries: string; books: string; books_created: string; sessions: string; session_seconds: string;
  }>`
    WITH units AS (
      SELECT id AS unit_id, name, id = ${organisationId} AS own FROM organisations WHERE id = ${organisationId} OR parent_id = ${organisationId}
    ), unit_of AS (
      -- Each organisation of the subtree with the row it counts in: itself for the organisation asked about, else the
      -- organisation directly below that holds it.
      SELECT a.organisation_id, a.ancestor_id AS unit_id FROM units u
      JOIN organisation_ancestors a ON a.ancestor_id = u.unit_id AND (NOT u.own OR a.organisation_id = u.unit_id)
    ), roster AS (
      SELECT s.organisation_id, count(*) AS n FROM students s WHERE s.organisation_id IN (SELECT organisation_id FROM unit_of) GROUP BY 1
    ), student_members AS (
      SELECT m.organisation_id, count(*) AS n FROM members m
      WHERE m.organisation_id IN (SELECT organisation_id FROM unit_of) AND m.is_student AND m.revoked_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM students s WHERE s.organisation_id = m.organisation_id AND s.email = m.email)
      GROUP BY 1
    ), libs AS (
      SELECT l.organisation_id, count(*) AS n FROM libraries l
      WHERE l.organisation_id IN (SELECT organisation_id FROM unit_of) AND l.archived_at IS NULL GROUP BY 1
    ), rollups AS (
      SELECT d.organisation_id,
             sum(d.total) FILTER (WHERE d.metric = 'books-created') AS books,
             sum(d.total) FILTER (WHERE d.metric = 'books-created' AND d.day BETWEEN ${from}::date AND ${to}::date) AS books_created,
             sum(d.total) FILTER (WHERE d.metric = 'sessions' AND d.day BETWEEN ${from}::date AND ${to}::date) AS sessions,
             sum(d.total) FILTER (WHERE d.metric = 'sessions-duration' AND d.day BETWEEN ${from}::date AND ${to}::date) AS session_seconds
      FROM analytics_daily d
      WHERE d.organisation_id IN (SELECT organisation_id FROM unit_of) AND d.metric IN ('books-created', 'sessions', 'sessions-duration')
      GROUP BY 1
    )
    SELECT u.unit_id AS id, u.name, u.own,
           coalesce(sum(r.n), 0) + coalesce(sum(sm.n), 0) AS students, coalesce(sum(l.n), 0) AS libraries,
           coalesce(sum(x.books), 0) AS books, coalesce(sum(x.books_created), 0) AS books_created,
           coalesce(sum(x.sessions), 0) AS sessions, coalesce(sum(x.session_seconds), 0) AS session_seconds
    FROM units u
    JOIN unit_of o ON o.unit_id = u.unit_id
    LEFT JOIN roster r ON r.organisation_id = o.organisation_id
    LEFT JOIN student_members sm ON sm.organisation_id = o.organisation_id
    LEFT JOIN libs l ON l.organisation_id = o.organisation_id
    LEFT JOIN rollups x ON x.organisation_id = o.organisation_id
    GROUP BY u.unit_id, u.name, u.own
    ORDER BY u.own DESC, u.name, u.unit_id`.execute(db);
  return rows.map((r) => ({
    organisationId: r.id,
    organisationName: r.name,
    own: r.own,
    students: Number(r.students),
    libraries: Number(r.libraries),
    books: Number(r.books),
    booksCreated: Number(r.books_created),
    sessions: Number(r.sessions),
    sessionSeconds: Number(r.session_seconds),
  }));
}
