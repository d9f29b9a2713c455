import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE, type AuditEvent, type AuditEventsPage } from '@quire/core';
import { recordAudit } from '../src/modules/access/audit.js';
import { signIn, type SignedInHeaders } from './auth.js';
import { buildAdmin, buildLicense, buildOrganisation, buildTeacher } from './factories.js';
import { buildTestApp, type TestApp } from './helper.js';
import { graphql, libraryManagerOf, orgPath, orgWithAdmin } from './teachers.helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const logUrl = (orgId: string, query = '') => `/api/organisations/${orgId}/audit-events${query ? `?${query}` : ''}`;

async function page(orgId: string, headers: SignedInHeaders, query = ''): Promise<AuditEventsPage> {
  const response = await t.app.inject({ method: 'GET', url: logUrl(orgId, query), headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AuditEventsPage;
}

async function only(orgId: string, headers: SignedInHeaders, action: string): Promise<AuditEvent> {
  const { events } = await page(orgId, headers, `action=${action}`);
  expect(events, action).toHaveLength(1);
  return events[0]!;
}

describe('what the audit log records', () => {
  it('records a licence assignment with the actor, the teachers, the licence by name and old → new', async () => {
    const { orgId, headers, userId, email } = await orgWithAdmin(t.app);
    const premium = await buildLicense(t.app.db, { organisationId: orgId, name: 'Premium', quantity: 5 });
    const ann = await buildTeacher(t.app.db, { organisationId: orgId, email: 'ann.lee@school.example.org', display_name: 'Ann Lee' });
    const put = await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${premium.id}`, headers: { ...headers, 'user-agent': 'Audit test browser' }, payload: [ann.id] });
    expect(put.statusCode).toBe(200);

    const entry = await only(orgId, headers, 'licenses.assign');
    expect(entry).toMatchObject({
      actor: { id: userId, email, kind: 'user' },
      actionText: 'Assigned licence Premium',
      targetText: 'Ann Lee <ann.lee@school.example.org>',
      targetIds: [ann.id],
      oldValue: { license: 'none' },
      newValue: { license: 'Premium' },
      changeText: 'license: none → Premium',
      outcome: 'success',
      errorCode: null,
      userAgent: 'Audit test browser',
    });
    expect(entry.ip).toBe('127.0.0.1');
    expect(entry.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('records a refused assignment as refused with its code, and no success for the change that rolled back', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const one = await buildLicense(t.app.db, { organisationId: orgId, name: 'Single', quantity: 1 });
    const [a, b] = await Promise.all([1, 2].map(() => buildTeacher(t.app.db, { organisationId: orgId })));
    const over = await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${one.id}`, headers, payload: [a!.id, b!.id] });
    expect(over.statusCode).toBe(409);
    const { events } = await page(orgId, headers, 'action=licenses.assign');
    expect(events.map((e) => [e.outcome, e.errorCode])).toEqual([['refused', 'not_enough_licenses']]);
    expect(await t.app.db.selectFrom('members').select('id').where('license_id', '=', one.id).execute()).toEqual([]);
  });

  it('leaves no entry when the change’s transaction rolls back after writing it', async () => {
    const org = await buildOrganisation(t.app.db);
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await recordAudit(trx, null, { organisationId: org.id, action: 'organisation.rename', targetType: 'organisation', targetIds: [org.id] });
        throw new Error('the change failed after its entry');
      }),
    ).rejects.toThrow('the change failed');
    expect(await t.app.db.selectFrom('audit_events').select('id').where('organisation_id', '=', org.id).execute()).toEqual([]);
  });

  it('records role changes, removals and settings with old → new in words', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { org_libraries: true });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, display_name: 'Bo Chen', email: 'bo.chen@school.example.org' });
    const role = await graphql(t.app, headers, 'mutation($orgId: ID!, $userId: ID!, $role: Int!) { updateMembershipRole(orgId: $orgId, userId: $userId, role: $role) { role } }', { orgId, userId: teacher.id, role: 400 });
    expect(role.errors).toBeUndefined();
    expect(await only(orgId, headers, 'members.role')).toMatchObject({ changeText: 'role: Teacher → Library Manager', targetText: 'Bo Chen <bo.chen@school.example.org>' });

    const settings = await t.app.inject({ method: 'PATCH', url: `/api/organisations/${orgId}/settings`, headers, payload: { apps: { giphy: -1 }, imageSearch: 'pixabay' } });
    expect(settings.statusCode).toBe(200);
    expect((await only(orgId, headers, 'settings.update')).changeText).toBe(
      'GIPHY: (none) → Disabled for everyone; Image search: (none) → Moderated safe images only (Pixabay)',
    );

    const pending = await buildTeacher(t.app.db, { organisationId: orgId, pending: true, role: -600, email: 'pending.one@school.example.org', display_name: '' });
    const removed = await graphql(t.app, headers, 'mutation($orgId: ID!, $memberIds: [ID!]!) { revokeMembership(orgId: $orgId, memberIds: $memberIds) { memberIds } }', { orgId, memberIds: [pending.id] });
    expect(removed.errors).toBeUndefined();
    expect(await only(orgId, headers, 'members.revoke')).toMatchObject({ changeText: 'status: Active → Inactive', targetText: 'pending.one@school.example.org' });
  });

  it('records one entry naming the count and every id for a bulk change', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, name: 'Bulk', quantity: 200 });
    const teachers = await Promise.all(Array.from({ length: 120 }, () => buildTeacher(t.app.db, { organisationId: orgId })));
    const put = await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${license.id}`, headers, payload: teachers.map((x) => x.id) });
    expect(put.statusCode).toBe(200);
    const entry = await only(orgId, headers, 'licenses.assign');
    expect(entry.targetCount).toBe(120);
    expect(entry.targetIds).toHaveLength(120);
    expect(entry.targetText).toMatch(/ and 117 more$/);
    // A target past the first 100 (no text kept) is found by its exact id; one of the first by part of its e-mail.
    expect((await page(orgId, headers, `target=${teachers[110]!.id}`)).events.map((e) => e.id)).toEqual([entry.id]);
    expect((await page(orgId, headers, `target=${encodeURIComponent(teachers[5]!.email.slice(2, 12).toUpperCase())}`)).events.map((e) => e.id)).toEqual([entry.id]);
    // A search with a character the JSON escapes still finds nothing it should not, and answers.
    expect((await page(orgId, headers, `target=${encodeURIComponent('a"b\\c')}`)).events).toEqual([]);
  });

  it('records console sign-ins (and refusals with the reason) and sign-outs in each organisation the person administers', async () => {
    const first = await buildOrganisation(t.app.db);
    const second = await buildOrganisation(t.app.db);
    const email = `signin-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
    await buildAdmin(t.app.db, { organisationId: first.id, email });
    await buildAdmin(t.app.db, { organisationId: second.id, email });
    const { headers } = await signIn(t.app, { email, password: 'right-password-1' });

    const wrong = await t.app.inject({ method: 'POST', url: '/auth/email', headers: { origin: headers.origin }, payload: { email, password: 'wrong-password' } });
    expect(wrong.statusCode).toBe(400);
    const token = await t.app.inject({ method: 'GET', url: '/identity/token', headers });
    const opened = await t.app.inject({ method: 'POST', url: '/api/token', headers, payload: { token: token.json().token } });
    expect(opened.statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/identity/sign-out', headers, payload: {} });
    expect(out.statusCode).toBe(200);

    for (const org of [first, second]) {
      const rows = await t.app.db.selectFrom('audit_events').select(['action', 'outcome', 'error_code', 'actor_email']).where('organisation_id', '=', org.id).orderBy('id').execute();
      expect(rows).toEqual([
        { action: 'console.sign_in', outcome: 'refused', error_code: 'auth/wrong-password', actor_email: email },
        { action: 'console.sign_in', outcome: 'success', error_code: null, actor_email: email },
        { action: 'console.sign_out', outcome: 'success', error_code: null, actor_email: email },
      ]);
    }
  });

  it('records a wrong password sent to the identity provider’s own e-mail sign-in, for admins only', async () => {
    const org = await buildOrganisation(t.app.db);
    const email = `idp-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
    await buildAdmin(t.app.db, { organisationId: org.id, email });
    await signIn(t.app, { email, password: 'right-password-1' });
    const teacherEmail = `idp-teacher-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
    await signIn(t.app, { email: teacherEmail, password: 'right-password-1' });
    const origin = { origin: 'http://localhost:3100', 'user-agent': 'Password guesser' };

    for (const address of [email, teacherEmail]) {
      const wrong = await t.app.inject({ method: 'POST', url: '/identity/sign-in/email', headers: origin, payload: { email: address, password: 'wrong-password' } });
      expect(wrong.statusCode).toBe(401);
    }
    const rows = await t.app.db.selectFrom('audit_events').select(['action', 'outcome', 'error_code', 'actor_email', 'user_agent']).where('organisation_id', '=', org.id).execute();
    expect(rows).toEqual([{ action: 'console.sign_in', outcome: 'refused', error_code: 'auth/wrong-password', actor_email: email, user_agent: 'Password guesser' }]);
    const teacherRows = await t.app.db.selectFrom('audit_events').select('id').where('actor_email', '=', teacherEmail).execute();
    expect(teacherRows).toEqual([]);
  });

  it('refuses to change or delete an entry, except for the retention job', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers, payload: { retentionDays: 365 } });
    await expect(sql`UPDATE audit_events SET action = 'x' WHERE organisation_id = ${orgId}`.execute(t.app.db)).rejects.toThrow(/cannot be changed/);
    await expect(sql`DELETE FROM audit_events WHERE organisation_id = ${orgId}`.execute(t.app.db)).rejects.toThrow(/cannot be changed/);
    expect(await t.app.db.selectFrom('audit_events').select('id').where('organisation_id', '=', orgId).execute()).toHaveLength(1);
  });
});

describe('GET …/audit-events', () => {
  it('pages newest first, 50 a page, without skipping or repeating while new entries arrive', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const values = Array.from({ length: 120 }, (_, i) => sql`(${orgId}, 'organisation.rename', ${`2024-01-01T00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(3, '0')}Z`}::timestamptz)`);
    await sql`INSERT INTO audit_events (organisation_id, action, created_at) VALUES ${sql.join(values)}`.execute(t.app.db);
    const first = await page(orgId, headers);
    expect(first.events).toHaveLength(AUDIT_PAGE_SIZE);
    // A new entry arrives between pages: it is newer than every page already read.
    await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers, payload: { retentionDays: 400 } });
    const seen = [...first.events];
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await page(orgId, headers, `cursor=${cursor}`);
      seen.push(...next.events);
      cursor = next.nextCursor;
    }
    expect(seen).toHaveLength(120);
    expect(new Set(seen.map((e) => e.id)).size).toBe(120);
    const times = seen.map((e) => e.time);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('combines filters and refuses bad ones with a clear 400', async () => {
    const { orgId, headers, email } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, name: 'Filtered', quantity: 5 });
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId, email: 'zed.target@school.example.org' });
    await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${license.id}`, headers, payload: [teacher.id] });
    await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers, payload: { retentionDays: 100 } });

    expect((await page(orgId, headers, 'target=ZED.TARGET')).events.map((e) => e.action)).toEqual(['licenses.assign']);
    expect((await page(orgId, headers, `actor=${email.slice(0, 8).toUpperCase()}&action=licenses.assign&action=audit.retention.update`)).events).toHaveLength(2);
    expect((await page(orgId, headers, 'action=licenses.assign,audit.retention.update&outcome=refused')).events).toHaveLength(0);
    expect((await page(orgId, headers, 'from=2000-01-01&to=2000-01-02')).events).toHaveLength(0);
    expect((await page(orgId, headers, `from=${new Date(Date.now() - 60_000).toISOString()}`)).events).toHaveLength(2);

    for (const [query, words] of [
      ['action=licenses.steal', 'Unknown action'],
      ['from=2024-02-01&to=2024-01-01', 'from must not be after to'],
      [`actor=${'a'.repeat(10_000)}`, 'at most 200'],
      ['from=yesterday', 'Give a date'],
      ['outcome=maybe', 'outcome'],
    ] as const) {
      const refused = await t.app.inject({ method: 'GET', url: logUrl(orgId, query), headers });
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().message, query).toContain(words);
    }
    const badCursor = await t.app.inject({ method: 'GET', url: logUrl(orgId, 'cursor=not-a-cursor'), headers });
    expect(badCursor.json()).toMatchObject({ code: 'invalid_cursor' });
  });

  it('answers admins only: a library manager is refused, another organisation’s admin gets no row and no export', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers, payload: { retentionDays: 120 } });
    const manager = await libraryManagerOf(t.app, orgId);
    const asManager = await t.app.inject({ method: 'GET', url: logUrl(orgId), headers: manager });
    expect(asManager.statusCode).toBe(403);
    expect(asManager.json().code).toBe('admin_required');

    const other = await orgWithAdmin(t.app);
    for (const url of [logUrl(orgId), `/api/organisations/${orgId}/audit-events.csv`, `/api/organisations/${orgId}/audit-settings`]) {
      const response = await t.app.inject({ method: 'GET', url, headers: other.headers });
      expect(response.statusCode, url).toBe(403);
      expect(response.body).not.toContain('audit.retention');
    }
    // A school filter naming another organisation's id finds nothing of it.
    expect((await page(other.orgId, other.headers, `school=${orgId}`)).events).toEqual([]);
    const unsigned = await t.app.inject({ method: 'GET', url: logUrl(orgId) });
    expect(unsigned.statusCode).toBe(401);
  });

  it('shows a district’s admin the entries of its schools, each named, and filters by school', async () => {
    const district = await buildOrganisation(t.app.db, { name: 'Audit District' });
    const school = await buildOrganisation(t.app.db, { name: 'Audit School', parent_id: district.id });
    const admin = await buildAdmin(t.app.db, { organisationId: district.id });
    const { headers } = await signIn(t.app, { email: admin.email });
    await t.app.inject({ method: 'PUT', url: `/api/organisations/${school.id}/audit-settings`, headers, payload: { retentionDays: 200 } });
    await t.app.inject({ method: 'PUT', url: `/api/organisations/${district.id}/audit-settings`, headers, payload: { retentionDays: 300 } });
    const all = await page(district.id, headers);
    expect(all.hasOrganisationsBelow).toBe(true);
    expect(all.events.map((e) => e.organisationName)).toEqual(['Audit District', 'Audit School']);
    expect((await page(district.id, headers, `school=${school.id}`)).events.map((e) => e.organisationName)).toEqual(['Audit School']);
    // The school's own log holds only its own.
    expect((await page(school.id, headers)).events.map((e) => e.organisationName)).toEqual(['Audit School']);
  });
});

describe('GET …/audit-events.csv', () => {
  it('exports exactly the filtered view as RFC 4180 with a BOM and CRLF, neutralises formulas, and records the export', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const license = await buildLicense(t.app.db, { organisationId: orgId, name: 'CSV', quantity: 5 });
    const evil = await buildTeacher(t.app.db, { organisationId: orgId, display_name: '=HYPERLINK("http://evil.example","x")', email: 'evil@school.example.org' });
    await t.app.inject({ method: 'PUT', url: `${orgPath(orgId)}/licenses/${license.id}`, headers, payload: [evil.id] });
    await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers, payload: { retentionDays: 500 } });

    const view = await page(orgId, headers, 'action=licenses.assign');
    const response = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/audit-events.csv?action=licenses.assign`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.body.startsWith('\uFEFFTime (UTC),Actor,')).toBe(true);
    expect(response.body.split('\r\n')).toHaveLength(3);
    expect(response.body).not.toMatch(/[^\r]\n/);
    const rows = parse(response.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(view.events.length);
    expect(rows[0]).toMatchObject({
      'Time (UTC)': view.events[0]!.time,
      Action: 'Assigned licence CSV',
      Target: `'=HYPERLINK("http://evil.example","x") <evil@school.example.org>`,
      Details: view.events[0]!.changeText,
      'Action code': 'licenses.assign',
      'Entry id': view.events[0]!.id,
    });

    const exported = await only(orgId, headers, 'audit.export');
    expect(exported.details).toEqual({ filters: { action: ['licenses.assign'] } });
    // The export holds the entries written before it: not itself.
    const all = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/audit-events.csv`, headers });
    const allRows = parse(all.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(allRows.map((r) => r['Action code'])).toEqual(['audit.export', 'audit.retention.update', 'licenses.assign']);
  });

  it('refuses a bad filter with a 400 before anything is written or recorded', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const response = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/audit-events.csv?action=nope`, headers });
    expect(response.statusCode).toBe(400);
    expect(await t.app.db.selectFrom('audit_events').select('id').where('organisation_id', '=', orgId).execute()).toEqual([]);
  });
});

describe('retention', () => {
  it('reads and changes the period within 90 days and 7 years, recorded with old → new', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const read = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/audit-settings`, headers });
    expect(read.json()).toEqual({ retentionDays: 730, minDays: 90, maxDays: 2555 });
    for (const retentionDays of [89, 2556, 100.5]) {
      const refused = await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers, payload: { retentionDays } });
      expect(refused.statusCode).toBe(400);
    }
    const changed = await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers, payload: { retentionDays: 90 } });
    expect(changed.json()).toMatchObject({ retentionDays: 90 });
    expect((await only(orgId, headers, 'audit.retention.update')).changeText).toBe('retentionDays: 730 → 90');
    const manager = await libraryManagerOf(t.app, orgId);
    expect((await t.app.inject({ method: 'PUT', url: `/api/organisations/${orgId}/audit-settings`, headers: manager, payload: { retentionDays: 400 } })).statusCode).toBe(403);
  });

  it('deletes entries older than each organisation’s period in batches and records one summary with the count', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app, { audit_retention_days: 90 });
    const keep = await buildOrganisation(t.app.db, { audit_retention_days: 2555 });
    const old = (org: string, days: number) => sql`(${org}, 'organisation.rename', now() - make_interval(days => ${days}))`;
    await sql`INSERT INTO audit_events (organisation_id, action, created_at) VALUES ${sql.join([
      ...Array.from({ length: 7 }, () => old(orgId, 100)),
      old(orgId, 10),
      old(keep.id, 100),
    ])}`.execute(t.app.db);
    const { purgeExpiredAuditEvents } = await import('../src/modules/audit/audit-retention.job.js');
    const done = await purgeExpiredAuditEvents(t.app.db, 3);
    expect(done.find((d) => d.organisationId === orgId)).toEqual({ organisationId: orgId, deleted: 7 });
    expect(done.find((d) => d.organisationId === keep.id)).toBeUndefined();
    const { events } = await page(orgId, headers);
    expect(events.map((e) => e.action)).toEqual(['audit.retention.purge', 'organisation.rename']);
    expect(events[0]).toMatchObject({ actor: { kind: 'job', name: 'Audit log retention' }, details: { deleted: 7, retentionDays: 90 } });
    expect(await purgeExpiredAuditEvents(t.app.db, 3)).toEqual([]);
  });

  it('runs once a day however often and however many server copies ask for it', async () => {
    const { askForRetentionRun, AUDIT_RETENTION_QUEUE } = await import('../src/modules/audit/audit-retention.job.js');
    const runs = () =>
      sql<{ state: string; day: string }>`SELECT state, to_char(singleton_on, 'YYYY-MM-DD') AS day FROM pgboss.job WHERE name = ${AUDIT_RETENTION_QUEUE} ORDER BY created_on`
        .execute(t.app.db)
        .then((r) => r.rows);
    const today = new Date().toISOString().slice(0, 10);
    // Five asks at once (five copies starting together): one job.
    const asked = await Promise.all(Array.from({ length: 5 }, () => askForRetentionRun(t.app.jobs)));
    expect(asked.filter((id) => id !== null)).toHaveLength(1);
    await t.app.jobs.waitForIdle(AUDIT_RETENTION_QUEUE);
    // The hourly asks of the rest of the day, after the run: nothing more.
    expect(await askForRetentionRun(t.app.jobs)).toBeNull();
    expect(await runs()).toEqual([{ state: 'completed', day: today }]);

    // The next day (the day's job seen from tomorrow: its slot is yesterday's), the first ask queues the day's run.
    await sql`UPDATE pgboss.job SET singleton_on = singleton_on - interval '1 day' WHERE name = ${AUDIT_RETENTION_QUEUE}`.execute(t.app.db);
    expect(await askForRetentionRun(t.app.jobs)).not.toBeNull();
    expect(await askForRetentionRun(t.app.jobs)).toBeNull();
    await t.app.jobs.waitForIdle(AUDIT_RETENTION_QUEUE);
    expect((await runs()).map((r) => r.state)).toEqual(['completed', 'completed']);
  });

  it('lets an organisation be deleted with its entries', async () => {
    const org = await buildOrganisation(t.app.db);
    await recordAudit(t.app.db, null, { organisationId: org.id, action: 'organisation.rename' });
    await t.app.db.deleteFrom('organisations').where('id', '=', org.id).execute();
    expect(await t.app.db.selectFrom('audit_events').select('id').where('organisation_id', '=', org.id).execute()).toEqual([]);
  });
});
