import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { MembersPage, RosterHistory, RosterImport } from '@quire/core';
import { buildAdmin, buildTeacher } from './factories.js';
import { appForFile } from './file-app.js';
import { applyRoster } from '../src/modules/rostering/roster-apply.service.js';
import { apply, preview, rosterDistrict, sampleFile, sampleFiles, upload, zipWithPython } from './roster.helpers.js';

/**
 * Rostering from a OneRoster 1.2 export (docs/rostering.md), driven through the Rostering page's calls with the
 * 1EdTech-style sample set of ./fixtures/oneroster-1.2, zipped by Python.
 */
const t = appForFile();

async function membersOf(orgId: string) {
  return t.app.db.selectFrom('members').select(['id', 'email', 'display_name', 'revoked_at', 'pending', 'license_id']).where('organisation_id', '=', orgId).orderBy('email').execute();
}

const DELTA_MANIFEST = sampleFile('manifest.csv').replace('file.users,bulk', 'file.users,delta').replace('file.roles,bulk', 'file.roles,delta')
  .replace('file.orgs,bulk', 'file.orgs,absent').replace('file.academicSessions,bulk', 'file.academicSessions,absent')
  .replace('file.classes,bulk', 'file.classes,absent').replace('file.enrollments,bulk', 'file.enrollments,absent');
const USERS_HEADER = sampleFile('users.csv').split('\n')[0]!;

describe('a OneRoster 1.2 bulk export', () => {
  it('previews what it would do, changing nothing, then applies it as a job', async () => {
    const { district, elementary, middle, admin } = await rosterDistrict(t);
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    expect(imported).toMatchObject({ status: 'preview', version: '1.2', mode: 'bulk', fileName: 'export.zip' });
    // Three teachers, a principal and a district administrator; the aide is skipped by default, the students counted.
    expect(imported.counts).toEqual({ add: 5, update: 0, retire: 0, unchanged: 0, errors: 0, students: 2, skipped: 2 });
    expect(imported.preview.add.map((r) => [r.sourcedId, r.name, r.role, r.organisation])).toEqual([
      ['usr-t-0001', 'Edna Krabappel', 'teacher', 'Springfield Elementary'],
      ['usr-t-0002', 'Elizabeth Hoover', 'teacher', 'Springfield Elementary'],
      ['usr-t-0003', 'Dewey Largo', 'teacher', 'Springfield Middle'],
      ['usr-a-0004', 'Seymour Skinner', 'principal', 'Springfield Elementary'],
      ['usr-a-0005', 'Gary Chalmers', 'districtAdministrator', 'Springfield Unified'],
    ]);
    expect(imported.orgs.map((o) => [o.sourcedId, o.organisationId])).toEqual([
      ['org-district-001', district.id], ['org-school-101', elementary.id], ['org-school-102', middle.id],
    ]);
    expect(await membersOf(elementary.id)).toEqual([]);

    const applied = await apply(t, admin, district.id, imported.id);
    expect(applied).toMatchObject({ status: 'applied', progress: { done: 5, total: 5 } });
    expect(applied.appliedAt).not.toBeNull();
    expect((await membersOf(elementary.id)).map((m) => [m.email, m.display_name, m.pending, m.revoked_at])).toEqual([
      ['ehoover@springfield.example.org', 'Elizabeth Hoover', true, null],
      ['ekrabappel@springfield.example.org', 'Edna Krabappel', true, null],
      ['sskinner@springfield.example.org', 'Seymour Skinner', true, null],
    ]);
    expect((await membersOf(middle.id)).map((m) => m.email)).toEqual(['dlargo@springfield.example.org']);
    // An administrator does not become a console admin unless the admin asks.
    expect(await t.app.db.selectFrom('admins').select('email').where('email', '=', 'gchalmers@springfield.example.org').execute()).toEqual([]);

    // Every change is in the audit trail of the member's organisation.
    const audit = await t.app.db.selectFrom('audit_events').select(['organisation_id', 'action', 'target_ids']).where('action', 'like', 'rostering.%').where('organisation_id', 'in', [district.id, elementary.id, middle.id]).execute();
    expect(audit.find((a) => a.action === 'rostering.import.applied' && a.organisation_id === district.id)).toBeDefined();
    expect(audit.filter((a) => a.action === 'rostering.member.added').flatMap((a) => a.target_ids)).toHaveLength(5);

    // The same file again changes nothing.
    const again = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    expect(again.counts).toMatchObject({ add: 0, update: 0, retire: 0, unchanged: 5 });
    const reapplied = await apply(t, admin, district.id, again.id);
    expect(reapplied).toMatchObject({ status: 'applied', progress: { done: 0, total: 0 } });
    expect(await membersOf(elementary.id)).toHaveLength(3);

    const history = (await t.app.inject({ method: 'GET', url: `/api/organisations/${district.id}/rostering/imports`, headers: admin })).json<RosterHistory>();
    expect(history.imports.map((i) => [i.id, i.status])).toEqual([[again.id, 'applied'], [imported.id, 'applied']]);
  });

  it('a delta renames by sourcedId (a changed e-mail updates, never duplicates) and retires tobedeleted; hand-added teachers stay', async () => {
    const { district, elementary, admin } = await rosterDistrict(t);
    const byHand = await buildTeacher(t.app.db, { organisationId: elementary.id, email: 'byhand@springfield.example.org' });
    await apply(t, admin, district.id, (await preview(t, admin, district.id, zipWithPython(sampleFiles()))).id);
    const before = await membersOf(elementary.id);
    const edna = before.find((m) => m.email === 'ekrabappel@springfield.example.org')!;

    const users = `${USERS_HEADER}
usr-t-0001,active,2026-01-10T08:00:00Z,true,ekrabappel,{SIS:1001},Edna,Flanders,,1001,eflanders@springfield.example.org,,,,,,,,,,,org-school-101,
usr-t-0002,tobedeleted,2026-01-10T08:00:00Z,true,ehoover,{SIS:1002},Elizabeth,Hoover,,1002,ehoover@springfield.example.org,,,,,,,,,,,org-school-101,
`;
    const roles = `${sampleFile('roles.csv').split('\n')[0]}
role-0001,active,2026-01-10T08:00:00Z,usr-t-0001,primary,teacher,2025-08-20,,org-school-101,
`;
    const delta = zipWithPython([{ name: 'manifest.csv', data: DELTA_MANIFEST }, { name: 'users.csv', data: users }, { name: 'roles.csv', data: roles }]);
    const imported = await preview(t, admin, district.id, delta);
    expect(imported.mode).toBe('delta');
    expect(imported.counts).toMatchObject({ add: 0, update: 1, retire: 1, errors: 0 });
    expect(imported.preview.update[0]).toMatchObject({ sourcedId: 'usr-t-0001', name: 'Edna Flanders', email: 'eflanders@springfield.example.org', changes: ['email', 'name'] });
    expect(imported.preview.retire[0]).toMatchObject({ sourcedId: 'usr-t-0002', name: 'Elizabeth Hoover' });
    await apply(t, admin, district.id, imported.id);

    const after = await membersOf(elementary.id);
    expect(after).toHaveLength(before.length);
    expect(after.find((m) => m.id === edna.id)).toMatchObject({ email: 'eflanders@springfield.example.org', display_name: 'Edna Flanders', revoked_at: null });
    expect(after.find((m) => m.email === 'ehoover@springfield.example.org')!.revoked_at).not.toBeNull();
    expect(after.find((m) => m.id === byHand.id)!.revoked_at).toBeNull();
  });

  it('a full import retires the people it no longer lists, but never a teacher added by hand', async () => {
    const { district, elementary, admin } = await rosterDistrict(t);
    await buildTeacher(t.app.db, { organisationId: elementary.id, email: 'byhand2@springfield.example.org' });
    await apply(t, admin, district.id, (await preview(t, admin, district.id, zipWithPython(sampleFiles()))).id);
    const fewer = sampleFiles({
      'users.csv': sampleFile('users.csv').split('\n').filter((l) => !l.startsWith('usr-t-0002')).join('\n'),
      'roles.csv': sampleFile('roles.csv').split('\n').filter((l) => !l.includes('usr-t-0002')).join('\n'),
    });
    const imported = await preview(t, admin, district.id, zipWithPython(fewer));
    expect(imported.counts).toMatchObject({ add: 0, update: 0, retire: 1, unchanged: 4 });
    await apply(t, admin, district.id, imported.id);
    const members = await membersOf(elementary.id);
    expect(members.filter((m) => m.revoked_at !== null).map((m) => m.email)).toEqual(['ehoover@springfield.example.org']);
  });

  it('takes over a teacher added by hand with the same address instead of duplicating them', async () => {
    const { district, elementary, admin } = await rosterDistrict(t);
    const existing = await buildTeacher(t.app.db, { organisationId: elementary.id, email: 'ekrabappel@springfield.example.org' });
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    expect(imported.preview.add.find((r) => r.sourcedId === 'usr-t-0001')?.changes).toEqual(['linked']);
    await apply(t, admin, district.id, imported.id);
    const members = (await membersOf(elementary.id)).filter((m) => m.email === 'ekrabappel@springfield.example.org');
    expect(members.map((m) => m.id)).toEqual([existing.id]);
  });

  it('lists unmatched orgs instead of guessing, and previews again once they are matched', async () => {
    const { district, elementary, middle, admin } = await rosterDistrict(t, { link: false });
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    expect(imported.counts).toMatchObject({ add: 0, errors: 5 });
    expect(imported.orgs.every((o) => o.organisationId === null)).toBe(true);
    expect(imported.preview.errors[0]).toMatchObject({ file: 'users.csv', line: 2, column: 'orgSourcedIds', reason: expect.stringContaining('unknown org org-school-101') });
    const put = await t.app.inject({ method: 'PUT', url: `/api/organisations/${district.id}/rostering/orgs`, headers: admin, payload: { links: [
      { sourcedId: 'org-district-001', organisationId: district.id }, { sourcedId: 'org-school-101', organisationId: elementary.id }, { sourcedId: 'org-school-102', organisationId: middle.id },
    ] } });
    expect(put.statusCode).toBe(200);
    const again = (await t.app.inject({ method: 'POST', url: `/api/organisations/${district.id}/rostering/imports/${imported.id}/preview`, headers: admin })).json<RosterImport>();
    expect(again.counts).toMatchObject({ add: 5, errors: 0 });
    // An organisation outside the district cannot be a target.
    const outside = await t.app.inject({ method: 'PUT', url: `/api/organisations/${elementary.id}/rostering/orgs`, headers: admin, payload: { links: [{ sourcedId: 'x', organisationId: district.id }] } });
    expect(outside.json()).toMatchObject({ code: 'roster_org_unknown' });
  });

  it('maps aides and administrators as the admin chooses, and grants a named licence while it has seats', async () => {
    const { district, elementary, admin } = await rosterDistrict(t);
    await t.app.db.insertInto('licenses').values({ id: `lic-${elementary.id}`, organisation_id: elementary.id, name: 'Premium', quantity: 2, book_quota: 100 }).execute();
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles()), { aides: 'teacher', consoleAdmins: 'true', licence: 'named', licenceName: 'premium' });
    expect(imported.counts).toMatchObject({ add: 6, skipped: 1 });
    await apply(t, admin, district.id, imported.id);
    const members = await membersOf(elementary.id);
    expect(members.map((m) => m.email)).toContain('wwillie@springfield.example.org');
    expect(members.filter((m) => m.license_id !== null)).toHaveLength(2);
    const admins = await t.app.db.selectFrom('admins').select(['organisation_id', 'email']).where('email', 'in', ['sskinner@springfield.example.org', 'gchalmers@springfield.example.org']).orderBy('email').execute();
    expect(admins).toEqual([{ organisation_id: district.id, email: 'gchalmers@springfield.example.org' }, { organisation_id: elementary.id, email: 'sskinner@springfield.example.org' }]);
  });

  it('an apply cut short by a restart carries on from what was committed, without duplicates', async () => {
    const { district, elementary, middle, admin } = await rosterDistrict(t);
    // The first two people were applied (their batch committed) before the process stopped.
    const firstTwo = sampleFiles({
      'users.csv': sampleFile('users.csv').split('\n').filter((l) => !/^usr-(t-0003|a-)/.test(l)).join('\n'),
      'roles.csv': sampleFile('roles.csv').split('\n').filter((l) => !/usr-(t-0003|a-)/.test(l)).join('\n'),
    });
    await apply(t, admin, district.id, (await preview(t, admin, district.id, zipWithPython(firstTwo))).id);
    const whole = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    await t.app.db.updateTable('roster_imports').set({ status: 'applying', done: 2, total: 5 }).where('id', '=', whole.id).execute();
    // The job's retry after the restart.
    await t.app.jobs.send('roster-apply', { organisationId: district.id, importId: whole.id });
    await t.app.jobs.waitForIdle('roster-apply');
    const after = (await t.app.inject({ method: 'GET', url: `/api/organisations/${district.id}/rostering/imports/${whole.id}`, headers: admin })).json<RosterImport>();
    expect(after).toMatchObject({ status: 'applied', progress: { done: 5, total: 5 } });
    const emails = [...(await membersOf(elementary.id)), ...(await membersOf(middle.id))].map((m) => m.email).sort();
    expect(emails).toEqual(['dlargo@springfield.example.org', 'ehoover@springfield.example.org', 'ekrabappel@springfield.example.org', 'sskinner@springfield.example.org']);
  });

  it('applies in batches of any size the same: every person once, the progress to the end, an audit entry per batch, action and organisation', async () => {
    const { district, elementary, middle, admin } = await rosterDistrict(t);
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    // The job's work with batches of two (PostgreSQL's are 5,000, PGlite's 500): the five people take three transactions.
    await t.app.db.updateTable('roster_imports').set({ status: 'queued' }).where('id', '=', imported.id).execute();
    const adminRules = { providerEmailDomain: t.app.env.PROVIDER_EMAIL_DOMAIN, productName: t.app.env.PRODUCT_NAME, districtSsoDomains: [] };
    expect(await applyRoster({ db: t.app.db, adminRules, batchSize: 2 }, district.id, imported.id)).toEqual({ applied: 5 });
    const after = (await t.app.inject({ method: 'GET', url: `/api/organisations/${district.id}/rostering/imports/${imported.id}`, headers: admin })).json<RosterImport>();
    expect(after).toMatchObject({ status: 'applied', progress: { done: 5, total: 5 } });
    expect((await membersOf(elementary.id)).map((m) => m.email)).toEqual(['ehoover@springfield.example.org', 'ekrabappel@springfield.example.org', 'sskinner@springfield.example.org']);
    expect((await membersOf(middle.id)).map((m) => m.email)).toEqual(['dlargo@springfield.example.org']);
    const added = await t.app.db.selectFrom('audit_events').select(['organisation_id', 'target_ids']).where('action', '=', 'rostering.member.added')
      .where('organisation_id', 'in', [district.id, elementary.id, middle.id]).orderBy('id').execute();
    const name = new Map([[district.id, 'district'], [elementary.id, 'elementary'], [middle.id, 'middle']]);
    expect(added.map((a) => [name.get(a.organisation_id!), a.target_ids.length])).toEqual([['elementary', 2], ['middle', 1], ['elementary', 1], ['district', 1]]);
    expect(await t.app.db.selectFrom('roster_import_people').select('n').where('import_id', '=', imported.id).execute()).toEqual([]);
    // Nothing is left to do: the same file again finds everyone as they are.
    expect((await preview(t, admin, district.id, zipWithPython(sampleFiles()))).counts).toMatchObject({ add: 0, update: 0, retire: 0, unchanged: 5 });
  });

  it('in one apply, moves a teacher to another school, brings a retired one back and takes back a retired administrator\'s console admin', async () => {
    const { district, elementary, middle, admin } = await rosterDistrict(t);
    // The school has an admin of its own, so the principal's admin can be taken back (the last one never is).
    await buildAdmin(t.app.db, { organisationId: elementary.id, email: 'office@springfield.example.org' });
    const asAdmins = { consoleAdmins: 'true' };
    await apply(t, admin, district.id, (await preview(t, admin, district.id, zipWithPython(sampleFiles()), asAdmins)).id);
    const before = await membersOf(elementary.id);
    const elizabeth = before.find((m) => m.email === 'ehoover@springfield.example.org')!;
    const deweyBefore = (await membersOf(middle.id)).find((m) => m.email === 'dlargo@springfield.example.org')!;
    const delta = (users: string, roles: string) => zipWithPython([
      { name: 'manifest.csv', data: DELTA_MANIFEST }, { name: 'users.csv', data: `${USERS_HEADER}\n${users}` }, { name: 'roles.csv', data: `${sampleFile('roles.csv').split('\n')[0]}\n${roles}` },
    ]);
    await apply(t, admin, district.id, (await preview(t, admin, district.id, delta('usr-t-0002,tobedeleted,2026-01-10T08:00:00Z,true,ehoover,{SIS:1002},Elizabeth,Hoover,,1002,ehoover@springfield.example.org,,,,,,,,,,,org-school-101,\n', ''), asAdmins)).id);

    const imported = await preview(t, admin, district.id, delta(`usr-t-0002,active,2026-01-11T08:00:00Z,true,ehoover,{SIS:1002},Elizabeth,Hoover,,1002,ehoover@springfield.example.org,,,,,,,,,,,org-school-101,
usr-t-0003,active,2026-01-11T08:00:00Z,true,dlargo,{SIS:1003},Dewey,Largo,,1003,dlargo@springfield.example.org,,,,,,,,,,,org-school-101,
usr-a-0004,tobedeleted,2026-01-11T08:00:00Z,true,sskinner,{SIS:1004},Seymour,Skinner,,1004,sskinner@springfield.example.org,,,,,,,,,,,org-school-101,
`, `role-0002,active,2026-01-11T08:00:00Z,usr-t-0002,primary,teacher,2025-08-20,,org-school-101,
role-0003,active,2026-01-11T08:00:00Z,usr-t-0003,primary,teacher,2025-08-20,,org-school-101,
`), asAdmins);
    expect(imported.counts).toMatchObject({ add: 0, update: 2, retire: 1, errors: 0 });
    expect(imported.preview.update.map((r) => [r.sourcedId, r.changes])).toEqual([['usr-t-0002', ['restored']], ['usr-t-0003', ['organisation']]]);
    await apply(t, admin, district.id, imported.id);

    const after = await membersOf(elementary.id);
    // Elizabeth is the same member, active again; Dewey's old membership is retired and he is a member of the school he moved to.
    expect(after.find((m) => m.id === elizabeth.id)).toMatchObject({ revoked_at: null });
    expect((await membersOf(middle.id)).find((m) => m.id === deweyBefore.id)!.revoked_at).not.toBeNull();
    expect(after.find((m) => m.email === 'dlargo@springfield.example.org')).toMatchObject({ revoked_at: null, pending: true });
    expect(after.find((m) => m.email === 'sskinner@springfield.example.org')!.revoked_at).not.toBeNull();
    const admins = await t.app.db.selectFrom('admins').select('email').where('organisation_id', '=', elementary.id).orderBy('email').execute();
    expect(admins.map((a) => a.email)).toEqual(['office@springfield.example.org']);
    const retired = await t.app.db.selectFrom('audit_events').select(['organisation_id', 'target_ids', 'details']).where('action', '=', 'rostering.member.retired')
      .where('organisation_id', 'in', [elementary.id, middle.id]).where(sql<boolean>`details->>'importId' = ${imported.id}`).orderBy('organisation_id').execute();
    expect(retired.map((a) => [a.organisation_id, a.target_ids]).sort()).toEqual([[elementary.id, [before.find((m) => m.email === 'sskinner@springfield.example.org')!.id]], [middle.id, [deweyBefore.id]]].sort());
  });

  it('shows the role the SIS gave each rostered teacher on the Teachers list and in its CSV, and none for a teacher added by hand', async () => {
    const { district, elementary, admin } = await rosterDistrict(t);
    await buildTeacher(t.app.db, { organisationId: elementary.id, email: 'byhand3@springfield.example.org' });
    await apply(t, admin, district.id, (await preview(t, admin, district.id, zipWithPython(sampleFiles()))).id);
    const answer = await t.app.inject({ url: `/payments/v1/admin/organisations/${district.id}/members/teachers?view=district&page=1&pageSize=10`, headers: admin });
    expect(answer.statusCode, answer.body).toBe(200);
    const list = answer.json<MembersPage>();
    expect(list.members.map((m) => [m.email, m.rosterRole]).sort()).toEqual([
      ['byhand3@springfield.example.org', null],
      ['dlargo@springfield.example.org', 'teacher'],
      ['ehoover@springfield.example.org', 'teacher'],
      ['ekrabappel@springfield.example.org', 'teacher'],
      ['gchalmers@springfield.example.org', 'districtAdministrator'],
      ['sskinner@springfield.example.org', 'principal'],
    ]);
    const csv = await t.app.inject({ url: `/payments/v1/admin/organisations/${elementary.id}/members/teachers/export.csv`, headers: admin });
    expect(csv.statusCode).toBe(200);
    const rows = parse(csv.body, { bom: true }) as string[][];
    expect(rows[0]).toEqual(['Email', 'Name', 'Signed up', 'License', 'Certification', 'Roster role']);
    expect(rows.slice(1).map((r) => [r[0], r[5]])).toEqual([
      ['byhand3@springfield.example.org', ''], ['ehoover@springfield.example.org', 'teacher'], ['ekrabappel@springfield.example.org', 'teacher'], ['sskinner@springfield.example.org', 'principal'],
    ]);
  });

  it('is for admins only, answers a double-click on apply once, and cancels', async () => {
    const { district, elementary, admin } = await rosterDistrict(t);
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    const [first, second] = await Promise.all([
      t.app.inject({ method: 'POST', url: `/api/organisations/${district.id}/rostering/imports/${imported.id}/apply`, headers: admin }),
      t.app.inject({ method: 'POST', url: `/api/organisations/${district.id}/rostering/imports/${imported.id}/apply`, headers: admin }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    await t.app.jobs.waitForIdle('roster-apply');
    expect((await membersOf(elementary.id)).filter((m) => m.email.endsWith('@springfield.example.org'))).toHaveLength(3);
    const applied = await t.app.db.selectFrom('audit_events').select('id').where('action', '=', 'rostering.import.applied').where(sql<boolean>`${imported.id} = ANY(target_ids)`).execute();
    expect(applied).toHaveLength(1);

    const other = await preview(t, admin, district.id, zipWithPython(sampleFiles()));
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/organisations/${district.id}/rostering/imports/${other.id}/cancel`, headers: admin });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    const late = await t.app.inject({ method: 'POST', url: `/api/organisations/${district.id}/rostering/imports/${other.id}/apply`, headers: admin });
    expect(late.json()).toMatchObject({ code: 'roster_import_closed' });

    const anonymous = await upload(t, { origin: t.origin }, district.id, zipWithPython(sampleFiles()));
    expect(anonymous.statusCode).toBe(401);
    const elsewhere = await rosterDistrict(t, { link: false });
    const foreign = await upload(t, elsewhere.admin, district.id, zipWithPython(sampleFiles()));
    expect(foreign.statusCode).toBe(403);
    const peek = await t.app.inject({ method: 'GET', url: `/api/organisations/${elsewhere.district.id}/rostering/imports/${imported.id}`, headers: elsewhere.admin });
    expect(peek.statusCode).toBe(404);
  });
});
