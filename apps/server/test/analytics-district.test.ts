import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsBreakdownSchema, analyticsSessionSchema, type AnalyticsBreakdown, type AnalyticsSession } from '@quire/core';
import { signIn, type SignedInHeaders } from './auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';

// Analytics across a district (docs/districts.md, "District views: Analytics"): a district's figures are its own and
// every school's below it; the breakdown splits them by school; a school's admin sees the school alone.

const KEY = 'intake-key-for-tests-0123456789-abcdef';
let t: TestApp;
beforeAll(async () => {
  // With the answer cache on, as in production: each test reads new organisations, and the last one checks that a
  // school's events drop its district's kept answers.
  t = await buildTestApp({ ANALYTICS_INGEST_KEY: KEY, ANALYTICS_URL_TTL_SECONDS: 900, ANALYTICS_CACHE_SECONDS: 600 });
});
afterAll(() => t.close());

const tag = () => Math.random().toString(36).slice(2, 8);
const get = (url: string) => t.app.inject({ method: 'GET', url });
const RANGE = '&from=20240501&to=20240531';

async function openSession(orgId: string, headers: SignedInHeaders): Promise<AnalyticsSession> {
  const answer = await t.app.inject({ method: 'GET', url: `/analytics/sessions/app/organisations/${orgId}`, headers });
  expect(answer.statusCode).toBe(200);
  return analyticsSessionSchema.parse(answer.json());
}

async function report(events: Record<string, unknown>[]) {
  const answer = await t.app.inject({ method: 'POST', url: '/analytics/events', headers: { authorization: `Bearer ${KEY}` }, payload: { events } });
  expect(answer.statusCode).toBe(200);
}

const event = (orgId: string, startedAt: string, durationSeconds: number, userKind = 'student') => ({
  id: randomUUID(), organisationId: orgId, userId: randomUUID(), userKind, startedAt, durationSeconds, os: 'Windows', provider: 'google', emailDomain: 'example.org',
});

/** An organisation's usage: sessions in May 2024 (and one in April), a library with books, students on the roster and as members. */
async function seed(orgId: string, n: { sessions: number; books: number; students: number; libraries: number }) {
  await report([
    ...Array.from({ length: n.sessions }, (_, i) => event(orgId, `2024-05-${String(6 + i).padStart(2, '0')}T09:00:00Z`, 600 * (i + 1), i % 2 ? 'teacher' : 'student')),
    event(orgId, '2024-04-02T09:00:00Z', 60),
  ]);
  const owner = await buildTeacher(t.app.db, { organisationId: orgId });
  for (let l = 0; l < n.libraries; l++) {
    await t.app.db.insertInto('libraries').values({ id: `${orgId}-lib${l}`, organisation_id: orgId, owner_member_id: owner.id, name: `Library ${l}` }).execute();
  }
  if (n.libraries) {
    for (let b = 0; b < n.books; b++) {
      await t.app.db.insertInto('books').values({ id: `${orgId}-b${b}`, organisation_id: orgId, library_id: `${orgId}-lib0`, title: 'A book', created_at: `2024-05-${String(10 + b).padStart(2, '0')}T08:00:00Z` }).execute();
    }
  }
  for (let s = 0; s < n.students; s++) {
    await t.app.db.insertInto('students').values({ id: `${orgId}-st${s}`, organisation_id: orgId, display_name: `Student ${s}`, email: `st${s}@students.example.org` }).execute();
  }
  // A student member who is also on the roster counts once in its organisation; one who is not counts too.
  if (n.students) await buildTeacher(t.app.db, { organisationId: orgId, is_student: true, email: 'st0@students.example.org' });
  await buildTeacher(t.app.db, { organisationId: orgId, is_student: true });
}

/** A district over two schools, with a stand-alone school beside it; an admin for each; usage everywhere. */
async function district() {
  const k = tag();
  const root = await buildOrganisation(t.app.db, { name: `Riverside ${k}` });
  const north = await buildOrganisation(t.app.db, { name: 'North Elementary', parent_id: root.id });
  const south = await buildOrganisation(t.app.db, { name: 'South Primary', parent_id: root.id });
  const alone = await buildOrganisation(t.app.db, { name: `Alone ${k}` });
  const admins = { root: `chief-${k}@district.org`, north: `head-${k}@north.org`, south: `head-${k}@south.org`, alone: `head-${k}@alone.org` };
  await buildAdmin(t.app.db, { organisationId: root.id, email: admins.root });
  await buildAdmin(t.app.db, { organisationId: north.id, email: admins.north });
  await buildAdmin(t.app.db, { organisationId: south.id, email: admins.south });
  await buildAdmin(t.app.db, { organisationId: alone.id, email: admins.alone });
  await seed(root.id, { sessions: 1, books: 0, students: 0, libraries: 0 });
  await seed(north.id, { sessions: 3, books: 2, students: 4, libraries: 2 });
  await seed(south.id, { sessions: 2, books: 3, students: 1, libraries: 1 });
  await seed(alone.id, { sessions: 5, books: 4, students: 2, libraries: 3 });
  const headers = async (email: string) => (await signIn(t.app, { email })).headers;
  return { root, north, south, alone, admins, headers };
}

/** The tiles' figures of one session, as the console reads them. */
async function tiles(s: AnalyticsSession) {
  const count = async (url: string) => ((await get(url)).json() as { count: number }).count;
  const series = async (url: string) => (await get(url)).json() as { rows: { total: number }[] };
  const sum = (rows: { total: number }[]) => rows.reduce((n, r) => n + r.total, 0);
  return {
    students: await count(s.urls.studentsCount),
    libraries: await count(s.urls.librariesCount),
    books: await count(s.urls.booksCount),
    booksCreated: await count(`${s.urls.booksCount}&period=w${RANGE}`),
    sessions: sum((await series(`${s.urls.data.sessions.total}${RANGE}`)).rows),
    sessionSeconds: sum((await series(`${s.urls.data['sessions-duration'].total}${RANGE}`)).rows),
  };
}

describe("a district's analytics", () => {
  it("sums its own figures and every school's: each tile and chart equals the sum of the schools' (and the district's own)", async () => {
    const d = await district();
    const districtTiles = await tiles(await openSession(d.root.id, await d.headers(d.admins.root)));
    const parts = [
      await tiles(await openSession(d.root.id, await d.headers(d.admins.root))),
      await tiles(await openSession(d.north.id, await d.headers(d.admins.north))),
      await tiles(await openSession(d.south.id, await d.headers(d.admins.south))),
    ];
    // Seen from the schools' own admins: the figures of one school each.
    expect(parts[1]).toEqual({ students: 5, libraries: 2, books: 2, booksCreated: 2, sessions: 3, sessionSeconds: 3600 });
    expect(parts[2]).toEqual({ students: 2, libraries: 1, books: 3, booksCreated: 3, sessions: 2, sessionSeconds: 1800 });
    // The district's tiles hold the schools' figures (not the stand-alone school's).
    const schools = { students: 5 + 2 + 1, libraries: 3, books: 5, booksCreated: 5, sessions: 1 + 3 + 2, sessionSeconds: 600 + 3600 + 1800 };
    expect(districtTiles).toEqual(schools);

    // The weekly chart is the schools' weekly charts added up, week by week.
    const weekly = async (orgId: string, email: string) =>
      (await get(`${(await openSession(orgId, await d.headers(email))).urls.data.sessions.weekly}${RANGE}`)).json() as { rows: { date: string; total: number; students: number }[] };
    const [all, north, south] = [await weekly(d.root.id, d.admins.root), await weekly(d.north.id, d.admins.north), await weekly(d.south.id, d.admins.south)];
    const districtOwn = { rows: all.rows.map((r) => ({ ...r, total: r.date === '2024-05-06' ? 1 : 0 })) };
    expect(all.rows.map((r) => r.total)).toEqual(all.rows.map((_, i) => (north.rows[i]?.total ?? 0) + (south.rows[i]?.total ?? 0) + (districtOwn.rows[i]?.total ?? 0)));
  });

  it('breaks the figures down: the district itself first, then each school by name, adding up to the tiles', async () => {
    const d = await district();
    const s = await openSession(d.root.id, await d.headers(d.admins.root));
    expect(s.urls.breakdown).toBe(`/analytics/data/app/organisations/${d.root.id}/breakdown.json?${s.signedQuery}`);
    const answer = await get(`${s.urls.breakdown}${RANGE}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const breakdown: AnalyticsBreakdown = analyticsBreakdownSchema.parse(answer.json());
    expect(breakdown.from).toBe('20240501');
    expect(breakdown.organisations.map((o) => [o.organisationName, o.own])).toEqual([
      [d.root.name, true],
      ['North Elementary', false],
      ['South Primary', false],
    ]);
    expect(breakdown.organisations[1]).toEqual({
      organisationId: d.north.id, organisationName: 'North Elementary', own: false, students: 5, libraries: 2, books: 2, booksCreated: 2, sessions: 3, sessionSeconds: 3600,
    });
    const sums = Object.fromEntries(
      (['students', 'libraries', 'books', 'booksCreated', 'sessions', 'sessionSeconds'] as const).map((k) => [k, breakdown.organisations.reduce((n, o) => n + o[k], 0)]),
    );
    expect(sums).toEqual(await tiles(s));
  });

  it('counts a region’s schools in their district’s row', async () => {
    const d = await district();
    const region = await buildOrganisation(t.app.db, { name: `Region ${tag()}` });
    await t.app.db.updateTable('organisations').set({ parent_id: region.id }).where('id', '=', d.root.id).execute();
    const chief = `region-${tag()}@region.org`;
    await buildAdmin(t.app.db, { organisationId: region.id, email: chief });
    const s = await openSession(region.id, await d.headers(chief));
    const breakdown = analyticsBreakdownSchema.parse((await get(`${s.urls.breakdown}${RANGE}`)).json());
    expect(breakdown.organisations.map((o) => [o.organisationName, o.sessions, o.students])).toEqual([
      [region.name, 0, 0],
      [d.root.name, 6, 8],
    ]);
  });

  it("shows a school's admin the school alone: the school's breakdown is itself; the district and a sibling are refused", async () => {
    const d = await district();
    const north = await d.headers(d.admins.north);
    const own = await openSession(d.north.id, north);
    expect(analyticsBreakdownSchema.parse((await get(`${own.urls.breakdown}${RANGE}`)).json()).organisations).toEqual([
      { organisationId: d.north.id, organisationName: 'North Elementary', own: true, students: 5, libraries: 2, books: 2, booksCreated: 2, sessions: 3, sessionSeconds: 3600 },
    ]);
    // No analytics session for the district or the sibling school.
    for (const orgId of [d.root.id, d.south.id, d.alone.id]) {
      const answer = await t.app.inject({ method: 'GET', url: `/analytics/sessions/app/organisations/${orgId}`, headers: north });
      expect(answer.statusCode, orgId).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'organisation_forbidden' });
    }
    // Its own signed query on the district's or a sibling's data: refused, nothing of theirs answered.
    for (const orgId of [d.root.id, d.south.id]) {
      for (const path of ['breakdown.json', 'sessions.json', 'sessions/weekly.json']) {
        const answer = await get(`/analytics/data/app/organisations/${orgId}/${path}?${own.signedQuery}`);
        expect(answer.statusCode, `${orgId} ${path}`).toBe(403);
        expect(answer.json()).toMatchObject({ code: 'signed_url_invalid' });
      }
      expect((await get(`/analytics/users/organisations/${orgId}/students/count?${own.signedQuery}`)).statusCode).toBe(403);
    }
  });

  it("refuses the district's links once the admin no longer administers the district", async () => {
    const d = await district();
    const s = await openSession(d.root.id, await d.headers(d.admins.root));
    await t.app.db.deleteFrom('admins').where('organisation_id', '=', d.root.id).where('email', '=', d.admins.root).execute();
    const answer = await get(s.urls.breakdown);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ code: 'signed_url_session_ended' });
  });
});

describe('the answer cache across a district', () => {
  it("drops a district's kept answers when one of its schools reports events", async () => {
    const d = await district();
    const s = await openSession(d.root.id, await d.headers(d.admins.root));
    const sessions = async () => ((await get(`${s.urls.data.sessions.total}${RANGE}`)).json() as { rows: { total: number }[] }).rows[0]?.total;
    const schoolRow = async () => analyticsBreakdownSchema.parse((await get(`${s.urls.breakdown}${RANGE}`)).json()).organisations.find((o) => o.organisationId === d.south.id)?.sessions;
    expect(await sessions()).toBe(6);
    expect(await schoolRow()).toBe(2);
    await report([event(d.south.id, '2024-05-20T09:00:00Z', 60)]);
    expect(await sessions()).toBe(7);
    expect(await schoolRow()).toBe(3);
  });
});
