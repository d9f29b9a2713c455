import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsSessionSchema, type AnalyticsSession } from '@quire/core';
import { buildTeacher } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { libraryManagerOf, orgWithAdmin } from '../../../test/teachers.helpers.js';
import { linkSigner } from '../access/signed-links.js';
import { createUrlSigner } from './signed-url.js';
import { recordStatements, sessionReads } from '../../../test/statements.js';

const KEY = 'intake-key-for-tests-0123456789-abcdef';
let t: TestApp;
beforeAll(async () => {
  // Without the answer cache, so each read below sees the database as it is (the cache has its own tests at the end).
  t = await buildTestApp({ ANALYTICS_INGEST_KEY: KEY, ANALYTICS_URL_TTL_SECONDS: 900, ANALYTICS_CACHE_SECONDS: 0 });
});
afterAll(() => t.close());

const sessionUrl = (orgId: string) => `/analytics/sessions/app/organisations/${orgId}`;

async function openSession(orgId: string, headers: Record<string, string>): Promise<AnalyticsSession> {
  const answer = await t.app.inject({ method: 'GET', url: sessionUrl(orgId), headers });
  expect(answer.statusCode).toBe(200);
  return analyticsSessionSchema.parse(answer.json());
}

const get = (url: string) => t.app.inject({ method: 'GET', url });
const sessionOf = (url: string) => new URL(url, 'http://x').searchParams.get('session') ?? '';

async function report(events: Record<string, unknown>[]) {
  const answer = await t.app.inject({ method: 'POST', url: '/analytics/events', headers: { authorization: `Bearer ${KEY}` }, payload: { events } });
  expect(answer.statusCode).toBe(200);
}

const session = (orgId: string, overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(), organisationId: orgId, userId: randomUUID(), userKind: 'student', startedAt: '2024-05-06T10:00:00Z',
  durationSeconds: 1800, os: 'Windows', provider: 'google', emailDomain: 'students.example.org', ...overrides,
});

describe('GET {analytics}/sessions/app/organisations/{orgId}', () => {
  it('gives an admin refreshIn, usersOrganisation and signed URLs for every count and chart', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { name: 'Session School' });
    const s = await openSession(orgId, headers);
    expect(s.refreshIn).toBe(900);
    expect(s.usersOrganisation).toEqual({ id: orgId, name: 'Session School' });
    expect(s.signedQuery).toMatch(/^session=[\w-]+&expires=\d+&signature=[\w-]+$/);
    expect(s.urls.studentsCount).toBe(`/analytics/users/organisations/${orgId}/students/count?${s.signedQuery}`);
    expect(s.urls.data['sessions-by-os'].weekly).toBe(`/analytics/data/app/organisations/${orgId}/sessions-by-os/weekly.json?${s.signedQuery}`);
    expect(s.urls.data.sessions.total).toBe(`/analytics/data/app/organisations/${orgId}/sessions.json?${s.signedQuery}`);
    const expires = Number(/expires=(\d+)/.exec(s.signedQuery)?.[1]);
    expect(expires * 1000 - Date.now()).toBeGreaterThan(890_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(900_000);
    for (const url of [s.urls.studentsCount, s.urls.librariesCount, s.urls.booksCount, s.urls.booksCountPeriodic, ...Object.values(s.urls.data).flatMap((u) => Object.values(u))]) {
      expect((await get(url)).statusCode, url).toBe(200);
    }
  });

  it('refuses a visitor (401), another organisation’s admin and a library manager (403)', async () => {
    const a = await orgWithAdmin(t.app, { org_libraries: true });
    const b = await orgWithAdmin(t.app);
    expect((await t.app.inject({ method: 'GET', url: sessionUrl(a.orgId) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: sessionUrl(a.orgId), headers: b.headers })).statusCode).toBe(403);
    const manager = await libraryManagerOf(t.app, a.orgId);
    expect((await t.app.inject({ method: 'GET', url: sessionUrl(a.orgId), headers: manager })).statusCode).toBe(403);
  });
});

describe('signed URLs', () => {
  it('refuses a changed signature, a changed expiry, a missing signature and an expired URL with 403', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const s = await openSession(orgId, headers);
    const url = s.urls.data.sessions.weekly;
    const expires = /expires=(\d+)/.exec(url)?.[1] ?? '';
    const cases = {
      signature: url.replace(/signature=([\w-])/, (_, c: string) => `signature=${c === 'A' ? 'B' : 'A'}`),
      expiry: url.replace(`expires=${expires}`, `expires=${Number(expires) + 3600}`),
      missing: url.split('?')[0] ?? '',
      expired: `${url.split('?')[0]}?${createUrlSigner(linkSigner(t.env.AUTH_SECRET, 'analytics-data'), 900).sign(orgId, sessionOf(url), Date.now() - 901_000).query}`,
      otherKey: `${url.split('?')[0]}?${createUrlSigner(linkSigner('another-secret-another-secret-another-secret', 'analytics-data'), 900).sign(orgId, sessionOf(url)).query}`,
      otherSession: url.replace(/session=[\w-]+/, 'session=another-session'),
    };
    const codes: Record<string, [number, string]> = {};
    for (const [name, tampered] of Object.entries(cases)) {
      const answer = await get(tampered);
      codes[name] = [answer.statusCode, answer.json().code];
    }
    expect(codes).toEqual({
      signature: [403, 'signed_url_invalid'], expiry: [403, 'signed_url_invalid'], missing: [403, 'signed_url_missing'],
      expired: [403, 'signed_url_expired'], otherKey: [403, 'signed_url_invalid'], otherSession: [403, 'signed_url_invalid'],
    });
  });
});

describe('signed URLs belong to the session that asked for them', () => {
  it('stop working once that session is signed out, expires or its user is no longer an admin there', async () => {
    const signedOut = await orgWithAdmin(t.app);
    const s1 = await openSession(signedOut.orgId, signedOut.headers);
    const out = await t.app.inject({ method: 'POST', url: '/identity/sign-out', headers: signedOut.headers });
    expect(out.statusCode).toBe(200);
    const afterSignOut = await get(s1.urls.studentsCount);
    expect([afterSignOut.statusCode, afterSignOut.json().code]).toEqual([403, 'signed_url_session_ended']);

    const expired = await orgWithAdmin(t.app);
    const s2 = await openSession(expired.orgId, expired.headers);
    await t.app.db.updateTable('session').set({ expiresAt: new Date(Date.now() - 1000) }).where('userId', '=', expired.userId).execute();
    expect((await get(s2.urls.data.sessions.weekly)).statusCode).toBe(403);

    const removed = await orgWithAdmin(t.app);
    const s3 = await openSession(removed.orgId, removed.headers);
    await t.app.db.deleteFrom('admins').where('organisation_id', '=', removed.orgId).execute();
    expect((await get(s3.urls.booksCount)).statusCode).toBe(403);

    // Another session of the same admin is another link's business: this one still works.
    const kept = await orgWithAdmin(t.app);
    const s4 = await openSession(kept.orgId, kept.headers);
    expect((await get(s4.urls.booksCount)).statusCode).toBe(200);
  });
});

describe('tenant boundary', () => {
  it('shows nothing of organisation A through B’s admin, B’s URLs or A’s ids', async () => {
    const a = await orgWithAdmin(t.app);
    const b = await orgWithAdmin(t.app);
    await report([session(a.orgId), session(a.orgId, { os: 'SecretOS-A' })]);
    const sb = await openSession(b.orgId, b.headers);
    // B's signed query on A's paths: refused.
    for (const url of [sb.urls.data['sessions-by-os'].weekly, sb.urls.studentsCount, sb.urls.booksCount, sb.urls.booksCountPeriodic]) {
      const onA = url.replaceAll(b.orgId, a.orgId);
      expect((await get(onA)).statusCode, onA).toBe(403);
    }
    // B's own URLs show only B's (empty) data.
    const own = await get(`${sb.urls.data['sessions-by-os'].total}&from=20240101&to=20241231`);
    expect(own.json()).toMatchObject({ names: [], rows: [] });
    expect(JSON.stringify(own.json())).not.toContain('SecretOS-A');
    // And A's admin sees A's.
    const sa = await openSession(a.orgId, a.headers);
    const mine = await get(`${sa.urls.data['sessions-by-os'].total}&from=20240101&to=20241231`);
    expect(mine.json().names).toEqual(expect.arrayContaining(['SecretOS-A', 'Windows']));
  });
});

describe('chart data from the rollups', () => {
  it('sums per ISO week and month with values by name, students, teachers and total, and fills quiet periods with zeros', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    await report([
      session(orgId, { startedAt: '2024-05-06T10:00:00Z', os: 'Windows' }), // Monday, week of 6 May
      session(orgId, { startedAt: '2024-05-12T10:00:00Z', os: 'iOS', userKind: 'teacher' }), // Sunday, same week
      session(orgId, { startedAt: '2024-05-13T10:00:00Z', os: 'iOS' }), // next week
      session(orgId, { startedAt: '2024-05-27T10:00:00Z', os: 'iOS', durationSeconds: 7200 }),
    ]);
    const s = await openSession(orgId, headers);
    const weekly = (await get(`${s.urls.data['sessions-by-os'].weekly}&from=20240501&to=20240531`)).json();
    expect(weekly.names).toEqual(['iOS', 'Windows']);
    expect(weekly.rows.map((r: { date: string; total: number }) => [r.date, r.total])).toEqual([
      ['2024-04-29', 0], ['2024-05-06', 2], ['2024-05-13', 1], ['2024-05-20', 0], ['2024-05-27', 1],
    ]);
    expect(weekly.rows[1]).toEqual({ date: '2024-05-06', values: { Windows: 1, iOS: 1 }, students: 1, teachers: 1, total: 2 });
    const monthly = (await get(`${s.urls.data['sessions-duration'].monthly}&from=20240101&to=20240630`)).json();
    expect(monthly.rows.map((r: { date: string; total: number }) => [r.date, r.total])).toEqual([
      ['2024-01-01', 0], ['2024-02-01', 0], ['2024-03-01', 0], ['2024-04-01', 0], ['2024-05-01', 1800 * 3 + 7200], ['2024-06-01', 0],
    ]);
    const daily = (await get(`${s.urls.data.sessions.daily}&from=20240512&to=20240513`)).json();
    expect(daily.rows).toEqual([
      { date: '2024-05-12', values: {}, students: 0, teachers: 1, total: 1 },
      { date: '2024-05-13', values: {}, students: 1, teachers: 0, total: 1 },
    ]);
  });

  it('answers an organisation without events with no rows, and refuses bad dates with 400', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const s = await openSession(orgId, headers);
    expect((await get(s.urls.data['email-domains'].weekly)).json()).toMatchObject({ names: [], rows: [] });
    expect((await get(`${s.urls.data.sessions.weekly}&from=20240231`)).statusCode).toBe(400);
    expect((await get(`${s.urls.data.sessions.weekly}&from=20240301&to=20240201`)).json().code).toBe('invalid_range');
  });
});

describe('counts from the real tables', () => {
  it('counts the organisation’s students, libraries in use and books, and books created per period', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const libraries = ['lib-a', 'lib-b', 'lib-archived'].map((name) => ({ id: `${orgId}-${name}`, organisation_id: orgId, owner_member_id: teacher.id, name, created_at: '2024-04-02T10:00:00Z', archived_at: name === 'lib-archived' ? '2024-05-01T00:00:00Z' : null }));
    await t.app.db.insertInto('libraries').values(libraries).execute();
    const books = [['2024-04-01', 2], ['2024-04-15', 1], ['2024-06-03', 3]] as const;
    let n = 0;
    for (const [day, count] of books) {
      for (let i = 0; i < count; i++) {
        await t.app.db.insertInto('books').values({ id: `${orgId}-b${n++}`, organisation_id: orgId, library_id: `${orgId}-lib-a`, title: 'A book', created_at: `${day}T08:00:00Z` }).execute();
      }
    }
    // Students are the organisation's own: its student roster and its student members (learners from a learning
    // platform), one person once — not who happened to send usage events (four ids here, none of them students below).
    await report([session(orgId, { userId: 's1' }), session(orgId, { userId: 's1' }), session(orgId, { userId: 's2' }), session(orgId, { userId: 't1', userKind: 'teacher' })]);
    await t.app.db.insertInto('students').values([
      { id: `${orgId}-st1`, organisation_id: orgId, display_name: 'Ann', email: 'ann@students.example.org', created_at: '2024-04-10T08:00:00Z' },
      { id: `${orgId}-st2`, organisation_id: orgId, display_name: 'Ben', email: null, created_at: '2024-04-11T08:00:00Z' },
      { id: `${orgId}-st3`, organisation_id: orgId, display_name: 'Cy', email: 'cy@students.example.org', created_at: '2024-06-11T08:00:00Z' },
    ]).execute();
    await buildTeacher(t.app.db, { organisationId: orgId, is_student: true, email: 'ann@students.example.org', created_at: '2024-04-12T08:00:00Z' });
    await buildTeacher(t.app.db, { organisationId: orgId, is_student: true, created_at: '2024-04-20T08:00:00Z' });
    await buildTeacher(t.app.db, { organisationId: orgId, is_student: true, revoked_at: new Date() });
    const s = await openSession(orgId, headers);
    expect((await get(s.urls.studentsCount)).json()).toEqual({ count: 4 });
    expect((await get(`${s.urls.studentsCount}&period=m&from=20240401&to=20240430`)).json()).toEqual({ count: 3 });
    expect((await get(s.urls.librariesCount)).json()).toEqual({ count: 2 });
    expect((await get(s.urls.booksCount)).json()).toEqual({ count: 6 });
    expect((await get(`${s.urls.booksCount}&period=m&from=20240401&to=20240430`)).json()).toEqual({ count: 3 });
    // Books are counted from a rollup that triggers on books keep: a bulk insert and a delete count too.
    await t.app.db.insertInto('books').values([1, 2].map((i) => ({ id: `${orgId}-bulk${i}`, organisation_id: orgId, library_id: `${orgId}-lib-b`, title: 'Bulk', created_at: '2024-06-03T23:00:00Z' }))).execute();
    await t.app.db.deleteFrom('books').where('id', '=', `${orgId}-bulk1`).execute();
    expect((await get(s.urls.booksCount)).json()).toEqual({ count: 7 });
    await t.app.db.deleteFrom('books').where('id', '=', `${orgId}-bulk2`).execute();
    const periodic = (await get(`${s.urls.booksCountPeriodic}&period=m&from=20240301&to=20240630`)).json();
    expect(periodic).toEqual({
      period: 'm', from: '20240301', to: '20240630',
      rows: [{ date: '2024-03-01', count: 0 }, { date: '2024-04-01', count: 3 }, { date: '2024-05-01', count: 0 }, { date: '2024-06-01', count: 3 }],
    });
  });
});

describe('the answer cache (ANALYTICS_CACHE_SECONDS)', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await buildTestApp({ ANALYTICS_INGEST_KEY: KEY, ANALYTICS_URL_TTL_SECONDS: 900, ANALYTICS_CACHE_SECONDS: 1 });
  });
  afterAll(() => c.close());
  const cget = (url: string) => c.app.inject({ method: 'GET', url });
  const addBook = async (orgId: string, libraryId: string, id: string) =>
    c.app.db.insertInto('books').values({ id, organisation_id: orgId, library_id: libraryId, title: 'A book', created_at: '2024-05-06T08:00:00Z' }).execute();

  it('answers the same question from the cache until events arrive for the organisation or the time is up', async () => {
    const { orgId, headers } = await orgWithAdmin(c.app);
    const teacher = await buildTeacher(c.app.db, { organisationId: orgId });
    await c.app.db.insertInto('libraries').values({ id: `${orgId}-lib`, organisation_id: orgId, owner_member_id: teacher.id, name: 'Lib' }).execute();
    await addBook(orgId, `${orgId}-lib`, `${orgId}-b1`);
    const s = analyticsSessionSchema.parse((await c.app.inject({ method: 'GET', url: sessionUrl(orgId), headers })).json());
    const first = await cget(s.urls.booksCount);
    expect(first.json()).toEqual({ count: 1 });
    expect(first.headers['cache-control']).toBe('private, no-store');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');

    // A book made outside the intake: the kept answer stands for now.
    await addBook(orgId, `${orgId}-lib`, `${orgId}-b2`);
    expect((await cget(s.urls.booksCount)).json()).toEqual({ count: 1 });
    // Events for the organisation drop its kept answers at once.
    const reported = await c.app.inject({
      method: 'POST', url: '/analytics/events', headers: { authorization: `Bearer ${KEY}` }, payload: { events: [session(orgId, { userId: 's1' })] },
    });
    expect(reported.statusCode).toBe(200);
    expect((await cget(s.urls.booksCount)).json()).toEqual({ count: 2 });
    expect((await cget(s.urls.studentsCount)).json()).toEqual({ count: 0 });
    expect((await cget(`${s.urls.data.sessions.weekly}&from=20240501&to=20240531`)).json().rows.some((r: { total: number }) => r.total === 1)).toBe(true);

    // And a kept answer is gone once its time is up.
    await addBook(orgId, `${orgId}-lib`, `${orgId}-b3`);
    expect((await cget(s.urls.booksCount)).json()).toEqual({ count: 2 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await cget(s.urls.booksCount)).json()).toEqual({ count: 3 });
  });

  it('never answers one organisation from another\'s kept answers', async () => {
    const a = await orgWithAdmin(c.app);
    const b = await orgWithAdmin(c.app);
    await c.app.inject({
      method: 'POST', url: '/analytics/events', headers: { authorization: `Bearer ${KEY}` },
      payload: { events: [session(a.orgId, { userId: 'a1' }), session(a.orgId, { userId: 'a2' }), session(b.orgId, { userId: 'b1' })] },
    });
    const student = (orgId: string, id: string) => ({ id: `${orgId}-${id}`, organisation_id: orgId, display_name: id, email: null });
    await c.app.db.insertInto('students').values([student(a.orgId, 'a1'), student(a.orgId, 'a2'), student(b.orgId, 'b1')]).execute();
    const sa = analyticsSessionSchema.parse((await c.app.inject({ method: 'GET', url: sessionUrl(a.orgId), headers: a.headers })).json());
    const sb = analyticsSessionSchema.parse((await c.app.inject({ method: 'GET', url: sessionUrl(b.orgId), headers: b.headers })).json());
    expect((await cget(sa.urls.studentsCount)).json()).toEqual({ count: 2 });
    // A's kept answer, asked for with B's id and A's signature: refused before the cache is looked at.
    expect((await cget(sa.urls.studentsCount.replace(a.orgId, b.orgId))).statusCode).toBe(403);
    expect((await cget(sb.urls.studentsCount)).json()).toEqual({ count: 1 });
    expect((await cget(sa.urls.studentsCount)).json()).toEqual({ count: 2 });
  });
});

describe('a signed call reads no session', () => {
  it("an Analytics page's data calls, sent with the browser's session cookie, never look up that session; the link's binding is one statement", async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const s = await openSession(orgId, headers);
    const urls = [s.urls.studentsCount, s.urls.librariesCount, s.urls.booksCount, s.urls.booksCountPeriodic, ...Object.values(s.urls.data).flatMap((u) => Object.values(u))];
    const recorded = recordStatements(t.app.db);
    try {
      for (const url of urls) expect((await t.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(200);
    } finally {
      recorded.stop();
    }
    expect(urls.length).toBeGreaterThanOrEqual(11);
    // The binding (the session that asked is alive and its user an admin here) is checked once and then kept 10 s.
    expect(sessionReads(recorded.sql)).toEqual({ byToken: 0, byId: 1 });
  });
});
