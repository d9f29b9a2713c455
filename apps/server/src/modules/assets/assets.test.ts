import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { FEATURED_BOOK_COUNT, SUBJECT_CARD_COUNT, teacherResourcesSchema } from '@quire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/auth.js';
import { buildTeacher, buildUser } from '../../../test/factories.js';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { buildLibrary } from '../../../test/libraries.helpers.js';
import { orgWithAdmin } from '../../../test/teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RESOURCES_URL: 'https://resources.example.org/teach', READER_URL: 'https://reader.example.org', READER_LIBRARY_ID: 'examples' });
});
afterAll(() => t.close());

const smallPng = () => sharp({ create: { width: 400, height: 300, channels: 3, background: '#336699' } }).png().toBuffer();

describe('GET /assets/{userId}/avatar', () => {
  it("serves a stored picture re-encoded, never redirects to a stored URL, and otherwise an initials image", async () => {
    const admin = await orgWithAdmin(t.app);
    const png = await smallPng();
    const withData = await buildUser(t.app.db, { image: `data:image/png;base64,${png.toString('base64')}` });
    await buildTeacher(t.app.db, { organisationId: admin.orgId, user_id: withData.id, email: withData.email });
    const data = await t.app.inject({ url: `/assets/${withData.id}/avatar`, headers: admin.headers });
    expect(data.statusCode).toBe(200);
    expect(data.headers['content-type']).toBe('image/webp');
    expect((await sharp(data.rawPayload).metadata()).width).toBe(128);
    expect(data.headers['cache-control']).toBe('private, no-cache');
    expect(data.headers.etag).toMatch(/^".+"$/);
    // The same URL answers 304 to a browser that has it.
    const again = await t.app.inject({ url: `/assets/${withData.id}/avatar`, headers: { ...admin.headers, 'if-none-match': data.headers.etag as string } });
    expect(again.statusCode).toBe(304);

    // A user-supplied URL is the open redirect the old call had: now it is initials, and nothing is fetched.
    const withUrl = await buildUser(t.app.db, { name: 'Ann Lee', image: 'https://evil.example.org/track.png' });
    const teacher = await buildTeacher(t.app.db, { organisationId: admin.orgId, user_id: withUrl.id, email: withUrl.email });
    for (const id of [withUrl.id, teacher.id]) {
      const res = await t.app.inject({ url: `/assets/${id}/avatar`, headers: admin.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toBe('image/png');
    }
    // A pending teacher without an account gets initials too (by member id).
    const pending = await buildTeacher(t.app.db, { organisationId: admin.orgId, user_id: null, pending: true });
    expect((await t.app.inject({ url: `/assets/${pending.id}/avatar`, headers: admin.headers })).statusCode).toBe(200);
  });

  it("hides people of other organisations (404), shows the actor's own, and needs a session", async () => {
    const admin = await orgWithAdmin(t.app);
    const stranger = await buildUser(t.app.db);
    const strangerMember = await buildTeacher(t.app.db, { email: stranger.email, user_id: stranger.id });
    expect((await t.app.inject({ url: `/assets/${stranger.id}/avatar`, headers: admin.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/assets/${strangerMember.id}/avatar`, headers: admin.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/assets/${stranger.id}/avatar` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/assets/${admin.userId}/avatar`, headers: admin.headers })).statusCode).toBe(200);
    const { headers } = await signIn(t.app, { email: stranger.email });
    expect((await t.app.inject({ url: `/assets/${admin.userId}/avatar`, headers })).statusCode).toBe(404);
  });
});

describe('Teacher Resources and covers', () => {
  it('lists the grade labels, 4 level cards, 8 subject cards and 9 featured books with links from configuration', async () => {
    const admin = await orgWithAdmin(t.app);
    const res = await t.app.inject({ url: '/api/teacher-resources', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const body = teacherResourcesSchema.parse(res.json());
    expect(body.gradeLabels).toEqual(['Elementary / Primary', 'High School / Secondary', 'Pre-Kindergarten / Kindergarten', 'Middle School']);
    expect(body.levels.map((l) => l.level)).toEqual(['kindergarten', 'elementary', 'middle-school', 'high-school']);
    expect(body.subjects).toHaveLength(SUBJECT_CARD_COUNT);
    expect(body.subjects.every((s) => s.link.startsWith('https://resources.example.org/teach/subjects/'))).toBe(true);
    expect(body.featuredBooks).toHaveLength(FEATURED_BOOK_COUNT);
    expect(new Set(body.featuredBooks.map((b) => b.shape))).toEqual(new Set(['landscape', 'square', 'portrait']));
    expect(body.readerUrl).toBe('https://reader.example.org');
    expect((await t.app.inject({ url: '/api/teacher-resources' })).statusCode).toBe(401);
  });

  it('serves every featured cover at width 250 in its shape, with or without the retry marker', async () => {
    const admin = await orgWithAdmin(t.app);
    const { featuredBooks } = teacherResourcesSchema.parse((await t.app.inject({ url: '/api/teacher-resources', headers: admin.headers })).json());
    for (const book of featuredBooks) {
      const res = await t.app.inject({ url: `/assets/${book.uid}/${book.bookId}?width=250`, headers: admin.headers });
      expect(res.statusCode).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.width).toBe(250);
      const ratio = meta.width! / meta.height!;
      expect(book.shape === 'landscape' ? ratio > 1.1 : book.shape === 'portrait' ? ratio < 0.9 : Math.abs(ratio - 1) < 0.05).toBe(true);
    }
    const first = featuredBooks[0]!;
    expect((await t.app.inject({ url: `/assets/${first.uid}/${first.bookId}?width=250&retry=1`, headers: admin.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/assets/${first.uid}/no-such-book?width=250`, headers: admin.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/assets/${first.uid}/${first.bookId}?width=99999`, headers: admin.headers })).statusCode).toBe(400);
  });

  it("serves an organisation's book cover only to people of that organisation", async () => {
    const a = await orgWithAdmin(t.app);
    const b = await orgWithAdmin(t.app);
    const author = await buildUser(t.app.db);
    const member = await buildTeacher(t.app.db, { organisationId: a.orgId, user_id: author.id, email: author.email });
    const library = await buildLibrary(t.app.db, { organisationId: a.orgId, ownerId: member.id });
    const bookId = randomUUID();
    await t.app.db.insertInto('books').values({ id: bookId, organisation_id: a.orgId, library_id: library.id, author_member_id: member.id, title: 'Secret Diary', shape: 'square' }).execute();
    const own = await t.app.inject({ url: `/assets/${author.id}/${bookId}?width=250`, headers: a.headers });
    expect(own.statusCode).toBe(200);
    expect((await sharp(own.rawPayload).metadata()).width).toBe(250);
    expect((await t.app.inject({ url: `/assets/${author.id}/${bookId}?width=250`, headers: b.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/assets/${author.id}/${bookId}?width=250` })).statusCode).toBe(401);
  });
});
