import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildLicense, buildTeacher } from './factories.js';
import { EXPORT_BATCH_SIZE } from '../src/modules/members/teachers-export.service.js';
import { buildTestApp, type TestApp } from './helper.js';
import { libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const exportUrl = (orgId: string, query = '') => `${orgPath(orgId)}/members/teachers/export.csv${query}`;

describe('GET …/members/teachers/export.csv', () => {
  it('streams an RFC 4180 CSV with a BOM, the spec columns, quoting and formula neutralising', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, book_quota: 1000 });
    await buildTeacher(t.app.db, { organisationId: orgId, email: 'a@s.org', display_name: 'Lee, "Al"', license_id: license.id, calevel1_at: new Date() });
    await buildTeacher(t.app.db, { organisationId: orgId, email: 'b@s.org', display_name: '=HYPERLINK("x")', pending: true, role: -600, certifying: 0.5 });
    await buildTeacher(t.app.db, { organisationId: orgId, email: 'c@s.org', display_name: 'Zoë Ünal' });

    const res = await t.app.inject({ url: exportUrl(orgId), headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="teachers.csv"');
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8');
    expect(text).toContain('\r\n');
    expect(text).toContain('"Lee, ""Al"""');
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows).toEqual([
      ['Email', 'Name', 'Signed up', 'License', 'Certification'],
      ['a@s.org', 'Lee, "Al"', 'Yes', '1000 books', 'Complete'],
      ['b@s.org', `'=HYPERLINK("x")`, 'No', '', 'In progress'],
      ['c@s.org', 'Zoë Ünal', 'Yes', '', ''],
    ]);
  });

  it('sends the same file compressed to a browser that accepts gzip or Brotli', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    await t.app.db
      .insertInto('members')
      .values(Array.from({ length: 1500 }, (_, i) => ({ id: `z-${orgId}-${i}`, organisation_id: orgId, email: `z${String(i).padStart(4, '0')}@s.org`, display_name: `Teacher ${i}`, role: 600 })))
      .execute();
    const plain = await t.app.inject({ url: exportUrl(orgId), headers: { ...headers, 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(parse(plain.rawPayload.toString('utf8'), { bom: true })).toHaveLength(1501);
    for (const [encoding, decompress] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
      const res = await t.app.inject({ url: exportUrl(orgId), headers: { ...headers, 'accept-encoding': encoding } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
      expect(decompress(res.rawPayload).equals(plain.rawPayload), encoding).toBe(true);
    }
  });

  it('exports the current page or everything matching the search, across batch boundaries', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const emails = Array.from({ length: 1205 }, (_, i) => `t${String(i).padStart(4, '0')}@s.org`);
    await t.app.db
      .insertInto('members')
      .values(emails.map((email, i) => ({ id: `${orgId}-${i}`, organisation_id: orgId, email, display_name: `T ${i}`, pending: false })))
      .execute();
    const all = parse((await t.app.inject({ url: exportUrl(orgId, '?scope=all&sort=email&dir=desc'), headers })).body, { bom: true }) as string[][];
    expect(all).toHaveLength(1206);
    expect(all.slice(1).map((r) => r[0])).toEqual([...emails].reverse());

    const byName = parse((await t.app.inject({ url: exportUrl(orgId, '?sort=name'), headers })).body, { bom: true }) as string[][];
    const expectedNames = emails.map((_, i) => `T ${i}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(byName.slice(1).map((r) => r[1])).toEqual(expectedNames);

    const page = parse((await t.app.inject({ url: exportUrl(orgId, '?scope=page&page=2&pageSize=20'), headers })).body, { bom: true }) as string[][];
    expect(page.slice(1).map((r) => r[0])).toEqual(emails.slice(20, 40));

    const search = parse((await t.app.inject({ url: exportUrl(orgId, '?search=t11&sort=name'), headers })).body, { bom: true }) as string[][];
    expect(search.slice(1).map((r) => r[0]).sort()).toEqual(emails.filter((e) => e.includes('t11')));
  });

  it('quotes a cell holding a lone LF or CR, and keeps the white-space and formula rules', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const names = ['Line\nbreak', 'Carriage\rreturn', ' leading space', 'trailing nbsp\u00a0', '\tTab first', '-1+1', '@home', 'plain'];
    for (const [i, name] of names.entries()) {
      await buildTeacher(t.app.db, { organisationId: orgId, email: `n${i}@s.org`, display_name: name });
    }
    const res = await t.app.inject({ url: exportUrl(orgId), headers });
    const text = res.rawPayload.toString('utf8');
    expect(text).toContain('n0@s.org,"Line\nbreak",Yes,,\r\n');
    expect(text).toContain('n1@s.org,"Carriage\rreturn",Yes,,\r\n');
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Line\nbreak', 'Carriage\rreturn', ' leading space', 'trailing nbsp\u00a0', "'\tTab first", "'-1+1", "'@home", 'plain']);
    expect(text).toContain('n2@s.org," leading space",');
    expect(text).toContain('n3@s.org,"trailing nbsp\u00a0",');
    expect(text).toContain('n7@s.org,plain,');
    // Every record ends with CRLF and no line end appears outside quotes but between records.
    expect(text.endsWith('\r\n')).toBe(true);
    expect(rows).toHaveLength(names.length + 1);
  });

  it('is formula-safe where a spreadsheet splits on semicolons (German, French, Dutch Excel)', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const names = ['Ann;=1+1;', 'Bo;+cmd', 'Cy; x;@SUM(A1)', 'Di;\n-2', 'semi;colon'];
    for (const [i, name] of names.entries()) await buildTeacher(t.app.db, { organisationId: orgId, email: `s${i}@s.org`, display_name: name });
    const text = (await t.app.inject({ url: exportUrl(orgId), headers })).rawPayload.toString('utf8');
    expect(text).toContain(`s0@s.org,"Ann;'=1+1;",`);
    expect(text).toContain('s4@s.org,"semi;colon",');
    // Split as a semicolon locale does (quotes in the middle of a part do not protect it): no part starts a formula.
    const parts = text.split(/[;\r\n]/).map((part) => part.replace(/^"/, ''));
    expect(parts.filter((part) => /^[=+\-@]/.test(part))).toEqual([]);
    // Read with commas, the names are as typed with an apostrophe before each formula.
    const rows = parse(text, { bom: true }) as string[][];
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Ann;\'=1+1;', "Bo;'+cmd", "Cy; x;'@SUM(A1)", "Di;\n'-2", 'semi;colon']);
  });

  it('gives inactive teachers a Removed date instead of Signed up and License', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, book_quota: 1000 });
    await buildTeacher(t.app.db, { organisationId: orgId, email: 'gone@s.org', display_name: 'Gone', license_id: license.id, revoked_at: new Date('2024-03-05T10:00:00Z'), calevel1_at: new Date() });
    await buildTeacher(t.app.db, { organisationId: orgId, email: 'left@s.org', display_name: 'Left', revoked_at: new Date('2023-11-22T23:30:00Z') });
    await buildTeacher(t.app.db, { organisationId: orgId, email: 'here@s.org', display_name: 'Here' });
    const res = await t.app.inject({ url: exportUrl(orgId, '?status=inactive&sort=email'), headers });
    expect(res.statusCode).toBe(200);
    const rows = parse(res.rawPayload.toString('utf8'), { bom: true }) as string[][];
    expect(rows).toEqual([
      ['Email', 'Name', 'Removed', 'Certification'],
      ['gone@s.org', 'Gone', '5th March 2024', 'Complete'],
      ['left@s.org', 'Left', '22nd November 2023', ''],
    ]);
    const page = parse((await t.app.inject({ url: exportUrl(orgId, '?status=inactive&scope=page&sort=email'), headers })).rawPayload.toString('utf8'), { bom: true }) as string[][];
    expect(page).toEqual(rows);
  });

  it('exports every row once when a sort key starts with U+FEFF at a batch boundary (no endless loop)', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    // Sorted by name the U+FEFF name comes last (after every "t …" name): the last row of the first full batch.
    const emails = Array.from({ length: EXPORT_BATCH_SIZE }, (_, i) => `b${String(i).padStart(4, '0')}@s.org`);
    await t.app.db
      .insertInto('members')
      .values(emails.map((email, i) => ({
        id: `${orgId}-${i}`, organisation_id: orgId, email, pending: false,
        display_name: i === EXPORT_BATCH_SIZE - 1 ? '\uFEFFZed' : `T ${i}`,
      })))
      .execute();
    const res = await t.app.inject({ url: exportUrl(orgId, '?sort=name'), headers });
    expect(res.statusCode).toBe(200);
    const rows = (parse(res.body, { bom: true }) as string[][]).slice(1);
    expect(rows).toHaveLength(EXPORT_BATCH_SIZE);
    expect(new Set(rows.map((r) => r[0])).size).toBe(EXPORT_BATCH_SIZE);
    expect(rows[rows.length - 1]).toEqual([emails[EXPORT_BATCH_SIZE - 1], '\uFEFFZed', 'Yes', '', '']);
  });

  it('refuses a library manager (the whole list is for admins) and other organisations before any byte is sent', async () => {
    const { orgId } = await orgWithAdmin(t.app);
    const manager = await libraryManagerOf(t.app, orgId);
    expect((await t.app.inject({ url: exportUrl(orgId), headers: manager })).statusCode).toBe(403);
    const other = await orgWithAdmin(t.app);
    const refused = await t.app.inject({ url: exportUrl(orgId), headers: other.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'organisation_forbidden' });
  });
});
