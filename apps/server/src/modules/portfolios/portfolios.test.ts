import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { csvRow, PORTFOLIO_CSV_COLUMNS, portfolioDownloadSchema, portfolioMessages } from '@quire/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { linkSigner } from '../access/signed-links.js';
import { recordStatements, sessionReads } from '../../../test/statements.js';
import { libraryManagerOf, orgWithAdmin } from '../../../test/teachers.helpers.js';
import { csvHeader } from './portfolio-csv.js';
import { PORTFOLIO_EXPORT_QUEUE } from './portfolios.job.js';
import { MAX_CONCURRENT_DOWNLOADS, openPortfolioDownload } from './portfolios.service.js';

let t: TestApp;
/** The tests' chunk size: small, so crossing chunk boundaries takes kilobytes, not megabytes. */
const CHUNK = 64 * 1024;

beforeAll(async () => {
  t = await buildTestApp({ PORTFOLIO_LINK_TTL_SECONDS: 60 });
  t.app.portfolios.setBuildOptions({ chunkBytes: CHUNK });
});
afterAll(() => t.close());

async function addStudents(orgId: string, students: Array<{ name: string; email?: string; items?: Array<{ title: string; pages?: number; teacher?: string; className?: string }> }>) {
  for (const [n, s] of students.entries()) {
    const id = `${String(n).padStart(4, '0')}-${randomUUID()}`;
    await t.app.db.insertInto('students').values({ id, organisation_id: orgId, display_name: s.name, email: s.email ?? null, grade: '5', school_year: '2025-26', student_number: `S${n}` }).execute();
    for (const [k, item] of (s.items ?? []).entries()) {
      await t.app.db.insertInto('portfolio_items').values({
        id: randomUUID(), organisation_id: orgId, student_id: id, book_id: `book-${n}-${k}`, book_title: item.title, page_count: item.pages ?? 3,
        created_at: new Date(Date.UTC(2025, 0, 1 + k)), published_at: new Date(Date.UTC(2025, 1, 1 + k)),
        teacher_name: item.teacher ?? 'Ms Teacher', teacher_email: 'teacher@school.org', class_name: item.className ?? 'Class 5A', book_url: null,
      }).execute();
    }
  }
}

async function exportCall(orgId: string, headers: Record<string, string>, id = 'latest') {
  return t.app.inject({ method: 'GET', url: `/rest/${orgId}/student-portfolios-export/${id}`, headers });
}

/** Opens the file behind a signed link without reading it (a download in progress). */
async function openPortfolioDownloadOf(url: string) {
  const u = new URL(url, 'http://test');
  const [, , org, , exportId] = u.pathname.split('/');
  const q = u.searchParams;
  const file = await openPortfolioDownload({ db: t.app.db, pool: t.database.pool, links: linkSigner(t.env.AUTH_SECRET, 'portfolio-download') }, {
    organisationId: org!, exportId: exportId!, userId: q.get('user')!, sessionId: q.get('session')!, expires: Number(q.get('expires')), signature: q.get('signature')!,
  });
  return file.body;
}

async function buildNow(orgId: string) {
  await t.app.portfolios.requestBuild(orgId);
  await t.app.jobs.waitForIdle(PORTFOLIO_EXPORT_QUEUE, 30_000);
}

describe('GET /rest/{org}/student-portfolios-export/{id}', () => {
  it('404s with the spec message when portfolios are off', async () => {
    const a = await orgWithAdmin(t.app);
    const res = await exportCall(a.orgId, a.headers);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: portfolioMessages.notEnabled });
  });

  it('425s until the first export exists, and that request queues the build', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [{ name: 'Ada Lovelace', items: [{ title: 'Engines' }] }]);
    const first = await exportCall(a.orgId, a.headers, a.userId);
    expect(first.statusCode).toBe(425);
    expect(first.json()).toMatchObject({ message: portfolioMessages.noExportYet });
    await t.app.jobs.waitForIdle(PORTFOLIO_EXPORT_QUEUE, 30_000);
    const ready = await exportCall(a.orgId, a.headers, a.userId);
    expect(ready.statusCode).toBe(200);
    const body = portfolioDownloadSchema.parse(ready.json());
    expect(body.refreshIn).toBe(60);
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('the sweep builds every organisation that has portfolios on and no fresh export', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    const off = await orgWithAdmin(t.app);
    expect(await t.app.portfolios.sweep()).toBeGreaterThanOrEqual(1);
    await t.app.jobs.waitForIdle(PORTFOLIO_EXPORT_QUEUE, 30_000);
    expect((await exportCall(a.orgId, a.headers)).statusCode).toBe(200);
    const rows = await t.app.db.selectFrom('portfolio_exports').select('id').where('organisation_id', '=', off.orgId).execute();
    expect(rows).toHaveLength(0);
  });

  it('downloads an RFC 4180 CSV with a BOM, every student and item, formulas neutralised', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [
      { name: '=HYPERLINK("http://evil.example","click")', email: 'x@school.org', items: [{ title: '+cmd|calc', pages: 12 }, { title: 'Line\nbreak, "quoted"', className: '@class' }] },
      { name: 'Zoë Ñúñez', items: [] },
      { name: '-2+3', items: [{ title: 'Plain' }] },
    ]);
    await buildNow(a.orgId);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="student-portfolios-.*\.csv"$/);
    const raw = file.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8');
    expect(text).toContain('\r\n');
    const records = parse(text, { bom: true, relax_column_count: false }) as string[][];
    expect(records[0]).toEqual([...PORTFOLIO_CSV_COLUMNS]);
    const names = records.slice(1).map((r) => r[2]);
    expect(names).toEqual(["'=HYPERLINK(\"http://evil.example\",\"click\")", "'=HYPERLINK(\"http://evil.example\",\"click\")", 'Zoë Ñúñez', "'-2+3"]);
    expect(records[1]?.[7]).toBe("'+cmd|calc");
    expect(records[1]?.[8]).toBe('12');
    expect(records[2]?.[7]).toBe('Line\nbreak, "quoted"');
    expect(records[2]?.[13]).toBe("'@class");
    // A student with nothing published still appears, with empty book columns.
    expect(records[3]?.[7]).toBe('');
    expect(records[1]?.[10]).toBe('2025-02-01T00:00:00.000Z');
  });

  it('refuses an expired, forged or other-organisation link and a library manager; keeps the tenant boundary', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    const b = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [{ name: 'Alpha Student', items: [{ title: 'A book' }] }]);
    await addStudents(b.orgId, [{ name: 'Beta Student', items: [{ title: 'B book' }] }]);
    await buildNow(a.orgId);
    await buildNow(b.orgId);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());

    // B's admin cannot ask for A's export, nor name another user.
    expect((await exportCall(a.orgId, b.headers)).statusCode).toBe(403);
    expect((await exportCall(a.orgId, a.headers, b.userId)).statusCode).toBe(403);
    // A library manager of A reads teachers, not student data.
    expect((await exportCall(a.orgId, await libraryManagerOf(t.app, a.orgId))).statusCode).toBe(403);
    // A's link moved under B's organisation is not valid; nor is a changed signature or expiry.
    expect((await t.app.inject({ method: 'GET', url: url.replace(`/rest/${a.orgId}/`, `/rest/${b.orgId}/`) })).statusCode).toBe(403);
    const u = new URL(url, 'http://x');
    u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600));
    expect((await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` })).statusCode).toBe(403);
    // The file holds only A's students.
    const text = (await t.app.inject({ method: 'GET', url })).payload;
    expect(text).toContain('Alpha Student');
    expect(text).not.toContain('Beta Student');

    // Expired: the same link, issued in the past.
    const { getPortfolioDownload } = await import('./portfolios.service.js');
    const { id: sessionId } = await t.app.db.selectFrom('session').select('id').where('userId', '=', a.userId).executeTakeFirstOrThrow();
    const old = await getPortfolioDownload({ db: t.app.db, env: t.app.env, links: linkSigner(t.env.AUTH_SECRET, 'portfolio-download'), requestBuild: async () => undefined },
      { userId: a.userId, email: a.email, displayName: '', emailVerified: true, sessionId }, a.orgId, 'latest', Date.now() - 120_000);
    const expired = await t.app.inject({ method: 'GET', url: old.url });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toMatch(/expired/);

    // Switched off: the link stops working too.
    await t.app.db.updateTable('organisations').set({ student_portfolios: false }).where('id', '=', a.orgId).execute();
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });

  it('a link stops working once the session that asked for it is signed out or its user is no longer an admin', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [{ name: 'Alpha Student', items: [{ title: 'A book' }] }]);
    await buildNow(a.orgId);
    const first = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    expect((await t.app.inject({ method: 'GET', url: first.url })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/identity/sign-out', headers: a.headers })).statusCode).toBe(200);
    const signedOut = await t.app.inject({ method: 'GET', url: first.url });
    expect([signedOut.statusCode, signedOut.json().code]).toEqual([403, 'link_session_ended']);

    const b = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(b.orgId, [{ name: 'Beta Student', items: [{ title: 'B book' }] }]);
    await buildNow(b.orgId);
    const second = portfolioDownloadSchema.parse((await exportCall(b.orgId, b.headers)).json());
    await t.app.db.deleteFrom('admins').where('organisation_id', '=', b.orgId).execute();
    expect((await t.app.inject({ method: 'GET', url: second.url })).statusCode).toBe(403);
  });

  it("a download sent with the browser's session cookie never looks up that session; the link's binding is one statement", async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [{ name: 'Alpha Student', items: [{ title: 'A book' }] }]);
    await buildNow(a.orgId);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const recorded = recordStatements(t.app.db);
    try {
      expect((await t.app.inject({ method: 'GET', url, headers: a.headers })).statusCode).toBe(200);
    } finally {
      recorded.stop();
    }
    expect(sessionReads(recorded.sql)).toEqual({ byToken: 0, byId: 1 });
  });

  it('a build that fails part-way is retried and never leaves a half-written export visible', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [{ name: 'Retry Student', items: [{ title: 'x'.repeat(37_500) }, { title: 'y'.repeat(37_500) }, { title: 'z'.repeat(37_500) }] }]);
    let attempts = 0;
    let seenDuringFailure: number | undefined;
    t.app.portfolios.setBuildOptions({
      chunkBytes: CHUNK,
      beforeChunk: async (seq) => {
        if (seq !== 1) return;
        if (attempts++ === 0) {
          const visible = await t.app.db.selectFrom('portfolio_exports').select('id').where('organisation_id', '=', a.orgId).where('status', '=', 'ready').execute();
          seenDuringFailure = visible.length;
          throw new Error('disk full');
        }
      },
    });
    try {
      await t.app.portfolios.requestBuild(a.orgId);
      await t.app.jobs.waitForIdle(PORTFOLIO_EXPORT_QUEUE, 30_000);
    } finally {
      t.app.portfolios.setBuildOptions({ chunkBytes: CHUNK });
    }
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(seenDuringFailure).toBe(0);
    const rows = await t.app.db.selectFrom('portfolio_exports').select(['status', 'chunk_count']).where('organisation_id', '=', a.orgId).execute();
    expect(rows).toEqual([{ status: 'ready', chunk_count: 2 }]);
    const chunks = await t.app.db.selectFrom('portfolio_export_chunks').select('seq').where('organisation_id', '=', a.orgId).execute();
    expect(chunks).toHaveLength(2);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.payload.length).toBeGreaterThan(3 * 37_500);
    expect(file.payload).toContain('z'.repeat(1000));
  });

  it('a build that fails while the rows are still streaming is retried and completes', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, Array.from({ length: 6 }, (_, n) => ({ name: `Streaming ${n}`, items: [{ title: String(n).repeat(62_500) }] })));
    let failures = 0;
    t.app.portfolios.setBuildOptions({
      chunkBytes: CHUNK,
      beforeChunk: (seq) => {
        if (seq === 0 && failures++ === 0) throw new Error('connection lost');
      },
    });
    try {
      await buildNow(a.orgId);
    } finally {
      t.app.portfolios.setBuildOptions({ chunkBytes: CHUNK });
    }
    expect(failures).toBe(2);
    const rows = await t.app.db.selectFrom('portfolio_exports').select(['status', 'row_count', 'chunk_count']).where('organisation_id', '=', a.orgId).execute();
    expect(rows).toEqual([{ status: 'ready', row_count: 6, chunk_count: 6 }]);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const records = parse((await t.app.inject({ method: 'GET', url })).rawPayload.toString('utf8'), { bom: true }) as string[][];
    expect(records.slice(1).map((r) => r[7]?.length)).toEqual(Array(6).fill(62_500));
  });

  it('writes every tricky cell exactly as the CSV rules of portfolio-csv.ts say', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    const titles = ['=1+1', '+x', '-y', '@z', '\tTab', '\rCR', 'a,b', 'say "hi"', 'two\r\nlines', '', ' padded ', 'Zoë 😀', 'back\\slash'];
    await addStudents(a.orgId, [{ name: 'Tricky', items: titles.map((title) => ({ title })) }, { name: 'No Email' }]);
    await buildNow(a.orgId);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const text = (await t.app.inject({ method: 'GET', url })).rawPayload.toString('utf8');
    const items = await t.app.db.selectFrom('portfolio_items').innerJoin('students', 'students.id', 'portfolio_items.student_id')
      .selectAll('portfolio_items').select(['students.student_number', 'students.grade', 'students.school_year'])
      .where('portfolio_items.organisation_id', '=', a.orgId).orderBy('published_at').orderBy('portfolio_items.id').execute();
    const expected = items.map((i) => csvRow([i.student_id, i.student_number, 'Tricky', null, i.grade, i.school_year, i.book_id, i.book_title, i.page_count,
      new Date(i.created_at).toISOString(), new Date(i.published_at).toISOString(), i.teacher_name, i.teacher_email, i.class_name, i.book_url]));
    const noEmail = await t.app.db.selectFrom('students').selectAll().where('organisation_id', '=', a.orgId).where('display_name', '=', 'No Email').executeTakeFirstOrThrow();
    expected.push(csvRow([noEmail.id, noEmail.student_number, 'No Email', null, noEmail.grade, noEmail.school_year, null, null, null, null, null, null, null, null, null]));
    expect(text).toBe(csvHeader() + expected.join(''));
    expect(text).toContain(`,"'\rCR",`);
    expect(text).toContain(`,'\tTab,`);
  });

  it('is formula-safe where a spreadsheet splits on semicolons (German, French, Dutch Excel)', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [{ name: 'Ann;=1+1;', items: [{ title: 'Tale;+cmd|calc', className: 'x;\n@y' }, { title: 'semi;colon' }] }]);
    await buildNow(a.orgId);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const text = (await t.app.inject({ method: 'GET', url })).rawPayload.toString('utf8');
    expect(text).toContain(`,"Ann;'=1+1;",`);
    expect(text).toContain(`,"semi;colon",`);
    const parts = text.split(/[;\r\n]/).map((part) => part.replace(/^"/, ''));
    expect(parts.filter((part) => /^[=+\-@]/.test(part))).toEqual([]);
  });

  it('stores the file in pieces of at most the chunk size, even when one row is larger, and downloads it whole', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    const long = `${'é'.repeat(44_000)}, "end"`;
    await addStudents(a.orgId, [{ name: 'Big Row', items: [{ title: long }] }, { name: 'Small Row', items: [{ title: 'Short' }] }]);
    await buildNow(a.orgId);
    const chunks = await t.app.db.selectFrom('portfolio_export_chunks').select(['seq', sql<number>`octet_length(data)`.as('bytes')])
      .where('organisation_id', '=', a.orgId).orderBy('seq').execute();
    expect(chunks.length).toBe(2);
    for (const chunk of chunks) expect(chunk.bytes).toBeLessThanOrEqual(CHUNK);
    const [file] = await t.app.db.selectFrom('portfolio_exports').select(['byte_size', 'row_count']).where('organisation_id', '=', a.orgId).execute();
    expect(file).toEqual({ byte_size: chunks.reduce((sum, c) => sum + c.bytes, 0), row_count: 2 });
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.rawPayload.length).toBe(file!.byte_size);
    const stored = await t.app.db.selectFrom('portfolio_export_chunks').select('data').where('organisation_id', '=', a.orgId).orderBy('seq').execute();
    expect(res.rawPayload.equals(Buffer.concat(stored.map((c) => Buffer.from(c.data))))).toBe(true);
    const records = parse(res.rawPayload.toString('utf8'), { bom: true }) as string[][];
    expect(records[0]).toEqual([...PORTFOLIO_CSV_COLUMNS]);
    expect(records.slice(1).map((r) => [r[2], r[7]])).toEqual([['Big Row', long], ['Small Row', 'Short']]);
  });

  it('a client that goes away mid-download frees its database connection and its download slot', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, Array.from({ length: 4 }, (_, n) => ({ name: `Long ${n}`, items: [{ title: 'x'.repeat(94_000) }] })));
    await buildNow(a.orgId);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const copies = async () => t.database.kind === 'postgres'
      ? (await sql<{ query: string }>`SELECT query FROM pg_stat_activity WHERE query LIKE 'COPY (select "data" from "portfolio_export_chunks"%'`.execute(t.app.db)).rows
      : [];
    // More abandoned downloads than there are slots: each must give its slot back.
    for (let n = 0; n < MAX_CONCURRENT_DOWNLOADS + 2; n += 1) {
      const body = await openPortfolioDownloadOf(url);
      for await (const piece of body) {
        expect((piece as Buffer).length).toBeGreaterThan(0);
        break; // the client goes away: the stream is destroyed after its first piece
      }
    }
    await expect.poll(async () => (await copies()).length, { timeout: 5_000 }).toBe(0);
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.length).toBeGreaterThan(4 * 94_000);
  });

  it('refuses a download beyond the concurrent cap with a clear message, and serves again once one ends', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    await addStudents(a.orgId, [{ name: 'One', items: [{ title: 'Book' }] }]);
    await buildNow(a.orgId);
    const { url } = portfolioDownloadSchema.parse((await exportCall(a.orgId, a.headers)).json());
    const open = await Promise.all(Array.from({ length: MAX_CONCURRENT_DOWNLOADS }, () => openPortfolioDownloadOf(url)));
    const refused = await t.app.inject({ method: 'GET', url });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ message: 'Too many portfolio downloads are running at once. Try again in a minute.' });
    for (const body of open) body.destroy();
    await expect.poll(async () => (await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('keeps only the newest two exports of an organisation', async () => {
    const a = await orgWithAdmin(t.app, { student_portfolios: true });
    for (let n = 0; n < 3; n += 1) await buildNow(a.orgId);
    const rows = await t.app.db.selectFrom('portfolio_exports').select('id').where('organisation_id', '=', a.orgId).execute();
    expect(rows).toHaveLength(2);
  });
});
