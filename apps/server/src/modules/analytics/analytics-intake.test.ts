import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';

const KEY = 'intake-key-for-tests-0123456789-abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ ANALYTICS_INGEST_KEY: KEY });
});
afterAll(() => t.close());

const post = (events: unknown[], key: string | null = KEY) =>
  t.app.inject({ method: 'POST', url: '/analytics/events', headers: key ? { authorization: `Bearer ${key}` } : {}, payload: { events } });

function event(orgId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(), organisationId: orgId, userId: `u-${Math.floor(Math.random() * 5)}`, userKind: 'student',
    startedAt: '2024-03-05T09:15:00Z', durationSeconds: 600, os: 'ChromeOS', provider: 'google', emailDomain: 'students.example.org',
    ...overrides,
  };
}

/** The rollups as the intake keeps them, and the same figures recomputed from the raw events. */
async function rollupsAgainstEvents(orgId: string) {
  const kept = await sql<{ metric: string; day: string; name: string; students: string; teachers: string; total: string }>`
    SELECT metric, to_char(day, 'YYYY-MM-DD') AS day, name, students::text, teachers::text, total::text FROM analytics_daily
    WHERE organisation_id = ${orgId} AND metric <> 'users-first-seen' ORDER BY 1, 2, 3`.execute(t.app.db);
  const day = sql`to_char((occurred_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD')`;
  const by = (metric: string, name: ReturnType<typeof sql>, value: 'count' | 'duration', where = sql`true`) => sql`
    SELECT ${metric}::text AS metric, ${day} AS day, ${name}::text AS name,
      ${value === 'count' ? sql`count(*) FILTER (WHERE user_kind = 'student')` : sql`coalesce(sum(duration_seconds) FILTER (WHERE user_kind = 'student'), 0)`}::text AS students,
      ${value === 'count' ? sql`count(*) FILTER (WHERE user_kind = 'teacher')` : sql`coalesce(sum(duration_seconds) FILTER (WHERE user_kind = 'teacher'), 0)`}::text AS teachers,
      ${value === 'count' ? sql`count(*)` : sql`sum(duration_seconds)`}::text AS total
    FROM analytics_events WHERE organisation_id = ${orgId} AND ${where} GROUP BY 2, 3`;
  const recomputed = await sql<{ metric: string; day: string; name: string; students: string; teachers: string; total: string }>`
    SELECT * FROM (
      ${by('sessions', sql`''`, 'count')} UNION ALL ${by('sessions-duration', sql`''`, 'duration')}
      UNION ALL ${by('sessions-by-os', sql`os`, 'count')} UNION ALL ${by('sessions-by-provider', sql`provider`, 'count')}
      UNION ALL ${by('email-domains', sql`email_domain`, 'count', sql`email_domain IS NOT NULL`)}
    ) q ORDER BY 1, 2, 3`.execute(t.app.db);
  return { kept: kept.rows, recomputed: recomputed.rows };
}

const eventCount = async (orgId: string) =>
  Number((await t.app.db.selectFrom('analytics_events').select((eb) => eb.fn.countAll<string>().as('n')).where('organisation_id', '=', orgId).executeTakeFirst())?.n);

describe('POST /analytics/events: who may report', () => {
  it('refuses a request without the key or with a wrong one, and records nothing', async () => {
    const org = await buildOrganisation(t.app.db);
    for (const key of [null, 'not-the-key', `${KEY}x`]) {
      const answer = await post([event(org.id)], key);
      expect(answer.statusCode).toBe(401);
      expect(answer.json().code).toBe('analytics_key_invalid');
    }
    expect(await eventCount(org.id)).toBe(0);
  });

  it('takes the key only as `Bearer <key>`: one space, nothing before or after', async () => {
    const org = await buildOrganisation(t.app.db);
    for (const authorization of [`Bearer  ${KEY}`, `Bearer ${KEY} `, `Bearer ${KEY}\t`, `Bearer ${KEY} x`, `Bearer ${KEY},`, ` Bearer ${KEY}`, `Basic ${KEY}`, KEY, `Bearer:${KEY}`]) {
      const answer = await t.app.inject({ method: 'POST', url: '/analytics/events', remoteAddress: '192.0.2.50', headers: { authorization }, payload: { events: [event(org.id)] } });
      expect(answer.statusCode, JSON.stringify(authorization)).toBe(401);
    }
    // The scheme's case does not matter (RFC 9110 section 11.1); the key's does.
    for (const authorization of [`bearer ${KEY}`, `BEARER ${KEY}`]) {
      const answer = await t.app.inject({ method: 'POST', url: '/analytics/events', remoteAddress: '192.0.2.51', headers: { authorization }, payload: { events: [event(org.id)] } });
      expect(answer.statusCode, authorization).toBe(200);
    }
    const upper = await t.app.inject({ method: 'POST', url: '/analytics/events', remoteAddress: '192.0.2.51', headers: { authorization: `Bearer ${KEY.toUpperCase()}` }, payload: { events: [event(org.id)] } });
    expect(upper.statusCode).toBe(401);
  });

  it('throttles wrong keys per address, in the database; the right key then waits too, other addresses do not', async () => {
    const org = await buildOrganisation(t.app.db);
    // 10 wrong keys per address in 15 minutes (docs/security.md).
    const max = 10;
    const from = (remoteAddress: string, key: string) =>
      t.app.inject({ method: 'POST', url: '/analytics/events', remoteAddress, headers: { authorization: `Bearer ${key}` }, payload: { events: [event(org.id)] } });
    const guesses = [];
    for (let i = 0; i < max + 5; i += 1) guesses.push((await from('198.51.100.7', `guess-${i}`)).statusCode);
    expect(guesses.slice(0, max)).toEqual(Array(max).fill(401));
    expect(guesses.slice(max)).toEqual(Array(5).fill(429));
    const right = await from('198.51.100.7', KEY);
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('too_many_requests');
    expect((await from('198.51.100.8', KEY)).statusCode).toBe(200);
    // Counted in rate_limits, so every copy of the server sees the same budget.
    const row = await t.app.db.selectFrom('rate_limits').select('hits').where('key', 'like', '%198.51.100.7%').executeTakeFirst();
    expect(row?.hits).toBeGreaterThan(max);
  });

  it('needs no console Origin (server to server) and is described in the OpenAPI document', async () => {
    const org = await buildOrganisation(t.app.db);
    expect((await post([event(org.id)])).statusCode).toBe(200);
    const docs = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(Object.keys(docs.json().paths)).toEqual(expect.arrayContaining(['/analytics/events', '/analytics/sessions/app/organisations/{orgId}']));
  });
});

describe('POST /analytics/events: checking a batch', () => {
  it('refuses a batch with bad events, naming each with its reason, and writes nothing of it', async () => {
    const org = await buildOrganisation(t.app.db);
    const good = event(org.id);
    const answer = await post([
      good,
      event(org.id, { id: 'bad-kind', userKind: 'parent' }),
      event(org.id, { id: 'bad-duration', durationSeconds: -5 }),
      event(org.id, { id: 'bad-date', startedAt: 'yesterday' }),
      event('no-such-organisation', { id: 'bad-org' }),
      event(org.id, { id: 'future', startedAt: new Date(Date.now() + 3 * 86_400_000).toISOString() }),
      'not an event',
      event(org.id, { id: 'bad-domain', emailDomain: 'not a domain' }),
      event(org.id, { id: 'year-1', startedAt: '0001-01-01T00:00:00Z' }),
      event(org.id, { id: 'before-2000', startedAt: '1999-12-31T23:59:59Z' }),
    ]);
    expect(answer.statusCode).toBe(400);
    const body = answer.json();
    expect(body.code).toBe('invalid_events');
    expect(body.message).toBe('9 of 10 events are not valid; nothing was recorded');
    expect(body.errors.map((e: { index: number; eventId: string | null }) => [e.index, e.eventId])).toEqual([
      [1, 'bad-kind'], [2, 'bad-duration'], [3, 'bad-date'], [4, 'bad-org'], [5, 'future'], [6, null], [7, 'bad-domain'], [8, 'year-1'], [9, 'before-2000'],
    ]);
    const reasons = body.errors.map((e: { reason: string }) => e.reason);
    expect(reasons[0]).toBe("userKind: must be 'student' or 'teacher'");
    expect(reasons[1]).toBe('durationSeconds: must not be negative');
    expect(reasons[2]).toMatch(/^startedAt: must be an ISO 8601 date/);
    expect(reasons[3]).toBe('organisationId: no such organisation');
    expect(reasons[4]).toBe('startedAt: must not be in the future');
    expect(reasons[6]).toBe('emailDomain: must be an e-mail domain such as school.example.org');
    expect(reasons[7]).toBe('startedAt: must not be before 2000-01-01');
    expect(reasons[8]).toBe('startedAt: must not be before 2000-01-01');
    expect(await eventCount(org.id)).toBe(0);
    expect(await t.app.db.selectFrom('analytics_daily').select('metric').where('organisation_id', '=', org.id).execute()).toEqual([]);
  });

  it('takes at most 1,000 events a request and at least one', async () => {
    const org = await buildOrganisation(t.app.db);
    const tooMany = await post(Array.from({ length: 1001 }, () => event(org.id)));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('events: must hold at most 1000 events');
    expect((await post([])).statusCode).toBe(400);
    const full = await post(Array.from({ length: 1000 }, () => event(org.id)));
    expect(full.json()).toEqual({ received: 1000, accepted: 1000, duplicates: 0 });
  });
});

describe('POST /analytics/events: rollups and retries', () => {
  it('keeps the daily rollups equal to the raw events, and a retried batch changes nothing', async () => {
    const org = await buildOrganisation(t.app.db);
    const batch = [
      event(org.id, { userKind: 'teacher', userId: 't-1', os: 'Windows', provider: 'office365', emailDomain: 'school.example.org', durationSeconds: 3600 }),
      event(org.id, { startedAt: '2024-03-05T23:59:59Z' }),
      event(org.id, { startedAt: '2024-03-06T00:00:00+01:00', emailDomain: null, provider: 'clever' }),
      event(org.id, { startedAt: '2024-03-07T10:00:00Z', userId: null, os: 'iOS' }),
    ];
    expect((await post(batch)).json()).toEqual({ received: 4, accepted: 4, duplicates: 0 });
    const first = await rollupsAgainstEvents(org.id);
    expect(first.kept).toEqual(first.recomputed);
    // 00:00 at +01:00 is still the 5th in UTC, the day rollups use.
    expect(first.kept.find((r) => r.metric === 'sessions' && r.day === '2024-03-05')).toMatchObject({ students: '2', teachers: '1', total: '3' });
    expect(first.kept.find((r) => r.metric === 'sessions-duration' && r.day === '2024-03-05')).toMatchObject({ teachers: '3600', total: '4800' });

    // The same batch again, as after a timeout: nothing new, nothing counted twice.
    expect((await post(batch)).json()).toEqual({ received: 4, accepted: 0, duplicates: 4 });
    // Half old, half new.
    const more = [batch[0], event(org.id, { startedAt: '2024-03-05T12:00:00Z' })];
    expect((await post(more)).json()).toEqual({ received: 2, accepted: 1, duplicates: 1 });
    const after = await rollupsAgainstEvents(org.id);
    expect(after.kept).toEqual(after.recomputed);
    expect(after.kept.find((r) => r.metric === 'sessions' && r.day === '2024-03-05')?.total).toBe('4');
  });

  it('counts every event once when overlapping batches arrive at the same time', async () => {
    const org = await buildOrganisation(t.app.db);
    const events = Array.from({ length: 600 }, (_, i) => event(org.id, { startedAt: `2024-0${1 + (i % 9)}-1${i % 10}T10:00:00Z`, os: ['Windows', 'iOS', 'macOS'][i % 3] }));
    const answers = await Promise.all([events.slice(0, 400), events.slice(200, 600), events.slice(100, 500), events].map((b) => post(b)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(answers.reduce((sum, a) => sum + a.json().accepted, 0)).toBe(600);
    expect(await eventCount(org.id)).toBe(600);
    const { kept, recomputed } = await rollupsAgainstEvents(org.id);
    expect(kept).toEqual(recomputed);
  });

  it('keeps an event id per organisation: the same id in another organisation is another event', async () => {
    const [a, b] = [await buildOrganisation(t.app.db), await buildOrganisation(t.app.db)];
    const answer = await post([event(a.id, { id: 'shared-id' }), event(b.id, { id: 'shared-id' })]);
    expect(answer.json()).toEqual({ received: 2, accepted: 2, duplicates: 0 });
  });

  it('counts each student once, on the day first seen', async () => {
    const org = await buildOrganisation(t.app.db);
    await post([
      event(org.id, { userId: 's-1', startedAt: '2024-02-01T10:00:00Z' }),
      event(org.id, { userId: 's-1', startedAt: '2024-02-02T10:00:00Z' }),
      event(org.id, { userId: 's-2', startedAt: '2024-02-02T10:00:00Z' }),
      event(org.id, { userId: 't-1', userKind: 'teacher', startedAt: '2024-02-02T10:00:00Z' }),
    ]);
    await post([event(org.id, { userId: 's-2', startedAt: '2024-02-03T10:00:00Z' }), event(org.id, { userId: 's-3', startedAt: '2024-02-03T10:00:00Z' })]);
    const rows = await t.app.db.selectFrom('analytics_daily').select(['day', 'students', 'teachers'])
      .where('organisation_id', '=', org.id).where('metric', '=', 'users-first-seen').orderBy('day').execute();
    expect(rows.map((r) => [Number(r.students), Number(r.teachers)])).toEqual([[1, 0], [1, 1], [1, 0]]);
  });
});
