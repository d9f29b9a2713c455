import { createHash } from 'node:crypto';
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

/** An entry written as it is stored (time, actor, targets and values given), for exports whose bytes are pinned. */
interface StoredEntry {
  at: string;
  action: string;
  organisationId: string;
  actorName?: string | null;
  actorEmail?: string | null;
  actorKind?: 'user' | 'provider_staff' | 'lti_platform' | 'identity_provider' | 'job';
  targetIds?: string[];
  targets?: Array<{ type: string; id: string; label: string | null }>;
  oldValue?: unknown;
  newValue?: unknown;
  ip?: string | null;
  userAgent?: string | null;
  refused?: string;
}

async function storeEntry(entry: StoredEntry): Promise<string> {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  const { rows } = await sql<{ id: string }>`
    INSERT INTO audit_events (organisation_id, actor_user_id, actor_email, actor_name, actor_kind, action, target_type, target_ids, targets,
      old_value, new_value, details, ip, user_agent, outcome, error_code, created_at)
    VALUES (${entry.organisationId}, 'user-1', ${entry.actorEmail ?? null}, ${entry.actorName ?? null}, ${entry.actorKind ?? 'user'}, ${entry.action},
      'member', ${entry.targetIds ?? []}::text[], ${json(entry.targets ?? [])}::jsonb, ${json(entry.oldValue)}::jsonb, ${json(entry.newValue)}::jsonb,
      '{"note": "not exported"}'::jsonb, ${entry.ip ?? null}, ${entry.userAgent ?? null}, ${entry.refused ? 'refused' : 'success'}, ${entry.refused ?? null},
      ${entry.at}::timestamptz)
    RETURNING id::text AS id`.execute(t.app.db);
  return rows[0]!.id;
}

/** Awkward entries an export must write exactly so: quotes, `;`, formulas, line breaks, non-ASCII, refusals, bulk changes. */
async function storeAwkwardEntries(organisationId: string): Promise<string[]> {
  const ids: string[] = [];
  const members = [
    { type: 'member', id: 'm-1', label: '=HYPERLINK("http://evil.example","x") <evil@school.example.org>' },
    { type: 'member', id: 'm-2', label: 'Ann; =1+1 <ann@school.example.org>' },
    { type: 'member', id: 'm-3', label: 'Line one\r\nLine two' },
    { type: 'member', id: 'm-4', label: 'Zoë Ångström 日本語 🎓' },
    { type: 'member', id: 'm-5', label: null },
  ];
  ids.push(await storeEntry({
    organisationId, at: '2024-03-05T10:11:12.345678Z', action: 'licenses.assign', actorName: 'Zoë Ångström', actorEmail: 'zoe@school.example.org',
    targetIds: members.map((m) => m.id), targets: [{ type: 'license', id: 'lic-1', label: 'Premium "Gold"' }, ...members],
    oldValue: { license: 'none' }, newValue: { license: 'Premium "Gold"' }, ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) "quoted", comma',
  }));
  ids.push(await storeEntry({
    organisationId, at: '2024-03-05T10:11:12.345678Z', action: 'licenses.remove', actorName: '-Minus Start', actorEmail: '@at.example.org', actorKind: 'provider_staff',
    targetIds: ['m-5'], targets: [{ type: 'member', id: 'm-5', label: null }], refused: 'not_enough_licenses',
  }));
  ids.push(await storeEntry({
    organisationId, at: '2024-03-04T09:00:00Z', action: 'settings.update', actorName: '+Plus Start', actorEmail: 'plus@school.example.org', actorKind: 'lti_platform',
    oldValue: { GIPHY: 'Teachers only', '10': 'ten', '2': 'two', 'Image search': null, n: 1.5, nested: { a: [1, 'b'], z: true } },
    newValue: { GIPHY: '=cmd|calc', Extra: '\tTabbed', n: 2, nested: null, 'Image search': 'Moderated; -safe' },
    ip: '2001:db8::1', userAgent: ' leading and trailing space ',
  }));
  ids.push(await storeEntry({
    organisationId, at: '2024-03-03T08:00:00.000001Z', action: 'members.import', actorName: null, actorEmail: null, actorKind: 'job',
    targetIds: Array.from({ length: 150 }, (_, i) => `bulk-${i}`),
    targets: Array.from({ length: 2 }, (_, i) => ({ type: 'member', id: `bulk-${i}`, label: `Teacher ${i} <t${i}@school.example.org>` })),
    newValue: 'a plain string', oldValue: 3,
  }));
  ids.push(await storeEntry({ organisationId, at: '2024-03-02T07:00:00Z', action: 'members.revoke', actorKind: 'identity_provider', actorName: 'Identity provider (SCIM)', targetIds: ['x-1', 'x-2'] }));
  ids.push(await storeEntry({ organisationId, at: '2024-03-01T06:00:00Z', action: 'legacy.unknown_action', actorName: '@mention', actorEmail: 'old@school.example.org', oldValue: null, newValue: { only: 'new' } }));
  ids.push(await storeEntry({ organisationId, at: '2024-02-29T05:00:00Z', action: 'console.sign_out', actorName: 'Quote " in the middle', actorEmail: 'q@school.example.org', targets: [{ type: 'member', id: '=id', label: null }], targetIds: ['=id'] }));
  return ids;
}

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

  it('writes the same bytes for awkward entries: quotes, `;`, formulas, line breaks, non-ASCII, refusals, bulk changes', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const ids = await storeAwkwardEntries(orgId);
    const response = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/audit-events.csv?to=2025-01-01`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.toString('utf8')).toBe(SCHOOL_PIN(ids));
  });

  it('writes the same bytes for a district, each entry with its school', async () => {
    const district = await buildOrganisation(t.app.db, { name: 'District; "North"' });
    const school = await buildOrganisation(t.app.db, { name: '=School Ñ', parent_id: district.id });
    const admin = await buildAdmin(t.app.db, { organisationId: district.id });
    const { headers } = await signIn(t.app, { email: admin.email });
    const ids = [
      await storeEntry({ organisationId: school.id, at: '2024-05-01T12:00:00Z', action: 'members.delete', actorName: 'Dee', actorEmail: 'dee@district.example.org', targetIds: ['m-9'], targets: [{ type: 'member', id: 'm-9', label: 'Gone, Teacher' }] }),
      await storeEntry({ organisationId: district.id, at: '2024-05-01T12:00:00Z', action: 'audit.retention.update', actorName: 'Dee', actorEmail: 'dee@district.example.org', oldValue: { retentionDays: 730 }, newValue: { retentionDays: 90 } }),
      await storeEntry({ organisationId: school.id, at: '2024-04-30T23:59:59.999999Z', action: 'lti.launch', actorKind: 'lti_platform', actorName: 'Canvas', refused: 'lti_provisioning_refused' }),
    ];
    const response = await t.app.inject({ method: 'GET', url: `/api/organisations/${district.id}/audit-events.csv?to=2025-01-01`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.toString('utf8')).toBe(DISTRICT_PIN(ids));
  });

  it('writes every entry once, in order, across the export’s batches (ties of time included)', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    // 2,600 entries, seven at each time, so equal times straddle any batch boundary.
    await sql`
      INSERT INTO audit_events (organisation_id, actor_email, actor_name, action, target_ids, targets, old_value, new_value, ip, user_agent, outcome, error_code, created_at)
      SELECT ${orgId}, 'a' || (g % 13) || '@school.example.org', CASE WHEN g % 11 = 0 THEN '=Actor ' || g ELSE 'Actor; ' || g END,
        (ARRAY['licenses.assign','members.revoke','settings.update'])[1 + g % 3], ARRAY['m' || g, 'n' || g],
        jsonb_build_array(jsonb_build_object('type', 'license', 'id', 'l', 'label', 'Lic "' || (g % 5) || '"'), jsonb_build_object('type', 'member', 'id', 'm' || g, 'label', 'Tëacher ' || g)),
        CASE WHEN g % 2 = 0 THEN jsonb_build_object('k', g) END, jsonb_build_object('k', '-' || g), '10.0.0.' || (g % 250), 'UA ' || g,
        CASE WHEN g % 50 = 0 THEN 'refused' ELSE 'success' END, CASE WHEN g % 50 = 0 THEN 'not_enough_licenses' END,
        timestamptz '2024-06-01T00:00:00Z' - make_interval(secs => (g / 7) * 1.5)
      FROM generate_series(1, 2600) g`.execute(t.app.db);
    const response = await t.app.inject({ method: 'GET', url: `/api/organisations/${orgId}/audit-events.csv?to=2025-01-01`, headers });
    expect(response.statusCode).toBe(200);
    const rows = parse(response.rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(2600);
    const keys = rows.map((r) => `${r['Time (UTC)']}|${r['Entry id']!.padStart(20, '0')}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(new Set(rows.map((r) => r['Entry id'])).size).toBe(2600);
    const firstId = Number((await sql<{ id: string }>`SELECT min(id)::text AS id FROM audit_events WHERE organisation_id = ${orgId}`.execute(t.app.db)).rows[0]!.id);
    // The bytes, with the entry ids made relative to the first (they depend on what other tests wrote before).
    const relative = response.rawPayload.toString('utf8').replace(/,(\d+)\r\n/g, (_, id: string) => `,#${Number(id) - firstId}\r\n`);
    expect(relative.length).toBe(BATCHES_PIN.length);
    expect(createHash('sha256').update(relative).digest('hex')).toBe(BATCHES_PIN.sha256);
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

/** The bytes the exports above must write (taken from the export before its rewrite for speed; read them as the file). */
const BULK_IDS = Array.from({ length: 150 }, (_, i) => `bulk-${i}`).join(' ');
const SCHOOL_PIN = (ids: string[]) =>
  [
    `\uFEFFTime (UTC),Actor,Actor e-mail,Actor type,Action,Target,Details,IP,Outcome,Error code,Action code,Target ids,User agent,Entry id`,
    `2024-03-05T10:11:12.345Z,'-Minus Start,'@at.example.org,Provider staff,Removed licence,m-5,,,refused,not_enough_licenses,licenses.remove,m-5,,${ids[1]}`,
    `2024-03-05T10:11:12.345Z,Zoë Ångström,zoe@school.example.org,Console user,"Assigned licence Premium ""Gold""","'=HYPERLINK(""http://evil.example"",""x"") <evil@school.example.org>, Ann; =1+1 <ann@school.example.org>, Line one\r\nLine two and 2 more","license: none → Premium ""Gold""",203.0.113.7,success,,licenses.assign,m-1 m-2 m-3 m-4 m-5,"Mozilla/5.0 (X11; Linux x86_64) ""quoted"", comma",${ids[0]}`,
    `2024-03-04T09:00:00.000Z,'+Plus Start,plus@school.example.org,Learning platform,Changed settings,,"2: two → (none); 10: ten → (none); n: 1.5 → 2; GIPHY: Teachers only → =cmd|calc; nested: {""a"":[1,""b""],""z"":true} → (none); Image search: (none) → Moderated; -safe; Extra: (none) → \tTabbed",2001:db8::1,success,,settings.update,," leading and trailing space ",${ids[2]}`,
    `2024-03-03T08:00:00.000Z,,,Quire (scheduled job),Imported teachers,"Teacher 0 <t0@school.example.org>, Teacher 1 <t1@school.example.org> and 148 more",3 → a plain string,,success,,members.import,${BULK_IDS},,${ids[3]}`,
    `2024-03-02T07:00:00.000Z,Identity provider (SCIM),,Identity provider (SCIM),Removed teacher,2 items,,,success,,members.revoke,x-1 x-2,,${ids[4]}`,
    `2024-03-01T06:00:00.000Z,'@mention,old@school.example.org,Console user,legacy.unknown_action,,only: (none) → new,,success,,legacy.unknown_action,,,${ids[5]}`,
    `2024-02-29T05:00:00.000Z,"Quote "" in the middle",q@school.example.org,Console user,Signed out of the console,'=id,,,success,,console.sign_out,'=id,,${ids[6]}`,
  ]
    .map((record) => `${record}\r\n`)
    .join('');
const DISTRICT_PIN = (ids: string[]) =>
  [
    `\uFEFFTime (UTC),School,Actor,Actor e-mail,Actor type,Action,Target,Details,IP,Outcome,Error code,Action code,Target ids,User agent,Entry id`,
    `2024-05-01T12:00:00.000Z,"District; ""North""",Dee,dee@district.example.org,Console user,Changed audit log retention,,retentionDays: 730 → 90,,success,,audit.retention.update,,,${ids[1]}`,
    `2024-05-01T12:00:00.000Z,'=School Ñ,Dee,dee@district.example.org,Console user,Deleted teacher,"Gone, Teacher",,,success,,members.delete,m-9,,${ids[0]}`,
    `2024-04-30T23:59:59.999Z,'=School Ñ,Canvas,,Learning platform,Launched from a learning platform,,,,refused,lti_provisioning_refused,lti.launch,,,${ids[2]}`,
  ]
    .map((record) => `${record}\r\n`)
    .join('');
const BATCHES_PIN = { length: 511096, sha256: 'b552e0d2d20110c5451d3d47a030f6348df0029b0996d5578cab1f90b25bea66' };
