import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { buildLicense, buildTeacher } from './factories.js';
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

  it('refuses a library manager (the whole list is for admins: issue 14) and other organisations before any byte is sent', async () => {
    const { orgId } = await orgWithAdmin(t.app);
    const manager = await libraryManagerOf(t.app, orgId);
    expect((await t.app.inject({ url: exportUrl(orgId), headers: manager })).statusCode).toBe(403);
    const other = await orgWithAdmin(t.app);
    const refused = await t.app.inject({ url: exportUrl(orgId), headers: other.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'organisation_forbidden' });
  });
});
