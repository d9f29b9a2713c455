import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RosterImport } from '@quire/core';
import { appForFile } from './file-app.js';
import { apply, csvWithPython, preview, rosterDistrict, sampleFile, sampleFiles, upload, zipWithPython, type ZipEntry } from './roster.helpers.js';

/**
 * What the Rostering upload makes of files that are not as they should be (docs/rostering.md, "Bad input"): each
 * refused with the file, line, column and reason, nothing changed; or, for rows, listed as errors while the other rows
 * go ahead. Also OneRoster 1.1, and a round trip through Python's csv writer.
 */
const t = appForFile();

const USERS_HEADER = sampleFile('users.csv').split('\n')[0]!;
const ROLES_HEADER = sampleFile('roles.csv').split('\n')[0]!;

function userRow(id: string, given: string, family: string, email: string, org = 'org-school-101') {
  return [id, '', '', 'true', id, '', given, family, '', '', email, '', '', '', '', '', '', '', '', '', '', org, ''];
}

async function refused(files: ZipEntry[] | Buffer) {
  const { district, elementary, admin } = await rosterDistrict(t);
  const before = await t.app.db.selectFrom('roster_imports').select('id').where('organisation_id', '=', district.id).execute();
  const response = await upload(t, admin, district.id, Buffer.isBuffer(files) ? files : zipWithPython(files));
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json<{ code: string; message: string; error: { file: string; line: number | null; column: string | null; reason: string } }>();
  expect(body.code).toBe('roster_file_invalid');
  // Nothing changed: no import recorded, no member made.
  expect(await t.app.db.selectFrom('roster_imports').select('id').where('organisation_id', '=', district.id).execute()).toEqual(before);
  expect(await t.app.db.selectFrom('members').select('id').where('organisation_id', '=', elementary.id).execute()).toEqual([]);
  return body;
}

describe('uploads refused whole, nothing changed', () => {
  it('a zip bomb: an entry inflating far beyond its compressed size', async () => {
    const body = await refused(sampleFiles({ 'users.csv': null }).concat({ name: 'users.csv', data: `${USERS_HEADER}\n`, repeat: 200_000 }));
    expect(body.error).toMatchObject({ file: 'users.csv', reason: expect.stringContaining('zip bomb') });
  });

  it('a path outside the archive in an entry name', async () => {
    const body = await refused([...sampleFiles(), { name: '../../etc/cron.d/users.csv', data: 'x' }]);
    expect(body.message).toContain('outside the archive');
    expect(body.error.file).toBe('../../etc/cron.d/users.csv');
  });

  it('a field of 10 MB', async () => {
    // Random letters: a field of one repeated letter would compress like a zip bomb and be refused as one.
    const field = randomBytes(7.5 * 1024 * 1024).toString('base64').replace(/[^a-z]/gi, 'q');
    const users = `${USERS_HEADER}\n${userRow('usr-big', 'Big', 'Field', `${field}@example.org`).join(',')}\n`;
    const body = await refused(sampleFiles({ 'users.csv': users }));
    expect(body.error).toMatchObject({ file: 'users.csv', line: 2, reason: expect.stringContaining('longer than 64 KB') });
  });

  it('a file the manifest names that the zip lacks, and one it says is absent that the zip has', async () => {
    expect((await refused(sampleFiles({ 'classes.csv': null }))).error).toMatchObject({ file: 'classes.csv', reason: 'the manifest names classes.csv (bulk) but the zip does not have it' });
    expect((await refused(sampleFiles({ 'courses.csv': 'sourcedId\n' }))).error).toMatchObject({ file: 'courses.csv', reason: 'the manifest says courses.csv is absent but the zip has it' });
  });

  it('text that is not UTF-8, with the line it is on', async () => {
    const users = Buffer.from(`${USERS_HEADER}\n${userRow('usr-1', 'Ren\u00e9e', 'Dupont', 'renee@springfield.example.org').join(',')}\n`, 'latin1');
    const body = await refused(sampleFiles({ 'users.csv': users as unknown as string }));
    expect(body.error).toMatchObject({ file: 'users.csv', line: 2, reason: expect.stringContaining('not UTF-8') });
  });

  it('a header that is not OneRoster, and a zip without a manifest, and a file that is not a zip', async () => {
    expect((await refused(sampleFiles({ 'users.csv': 'id,name,email\n1,A,a@example.org\n' }))).error).toMatchObject({ file: 'users.csv', line: 1, column: 'id', reason: expect.stringContaining('not OneRoster') });
    expect((await refused(sampleFiles({ 'manifest.csv': null }))).error.reason).toContain('no manifest.csv');
    expect((await refused(Buffer.from('sourcedId,name\n'))).error.reason).toContain('not a zip file');
  });

  it('refuses a body that is not sent as a zip', async () => {
    const { district, admin } = await rosterDistrict(t);
    const wrongType = await t.app.inject({ method: 'POST', url: `/api/organisations/${district.id}/rostering/imports`, headers: { ...admin, 'content-type': 'text/plain' }, payload: 'hello' });
    expect(wrongType.statusCode).toBe(400);
  });
});

describe('rows with errors are listed; the other rows go ahead', () => {
  it('names file, line, column and reason, keeps formula cells out, and offers the errors as CSV', async () => {
    const users = csvWithPython([
      USERS_HEADER.split(','),
      userRow('usr-ok', 'Ok', 'Teacher', 'ok@springfield.example.org'),
      userRow('', 'No', 'Id', 'noid@springfield.example.org'),
      userRow('usr-bad-mail', 'Bad', 'Mail', 'not-an-email'),
      userRow('usr-ok', 'Twice', 'Listed', 'twice@springfield.example.org'),
      userRow('usr-formula', '=HYPERLINK("http://evil.example")', 'X', 'formula@springfield.example.org'),
      userRow('usr-unknown-org', 'Lost', 'Teacher', 'lost@springfield.example.org', 'org-nowhere'),
    ]);
    const roles = [ROLES_HEADER, ...['usr-ok', 'usr-bad-mail', 'usr-formula'].map((u, i) => `r${i},,,${u},primary,teacher,,,org-school-101,`), 'r9,,,usr-unknown-org,primary,teacher,,,org-nowhere,'].join('\n');
    const { district, elementary, admin } = await rosterDistrict(t);
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles({ 'users.csv': users, 'roles.csv': roles })));
    expect(imported.counts).toMatchObject({ add: 1, errors: 5 });
    expect(imported.preview.errors).toEqual([
      { file: 'users.csv', line: 3, column: 'sourcedId', reason: 'missing sourcedId' },
      { file: 'users.csv', line: 4, column: 'email', reason: 'bad e-mail "not-an-email"' },
      { file: 'users.csv', line: 5, column: 'sourcedId', reason: 'duplicate sourcedId usr-ok' },
      { file: 'users.csv', line: 6, column: 'givenName', reason: 'the value starts with "=", which a spreadsheet would run as a formula' },
      { file: 'users.csv', line: 7, column: 'orgSourcedId', reason: 'unknown org org-nowhere: it is not in orgs.csv' },
    ]);
    const csv = await t.app.inject({ method: 'GET', url: `/api/organisations/${district.id}/rostering/imports/${imported.id}/errors.csv`, headers: admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    // One byte order mark, then the header: a second one would be part of the first column's name in a spreadsheet.
    expect(csv.body.startsWith('\uFEFFfile,')).toBe(true);
    const lines = csv.body.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe('file,line,column,reason');
    expect(lines).toHaveLength(6);

    // All-or-nothing: refused while the file has errors, nothing applied.
    const strict = await preview(t, admin, district.id, zipWithPython(sampleFiles({ 'users.csv': users, 'roles.csv': roles })), { allOrNothing: 'true' });
    const refusedApply = await t.app.inject({ method: 'POST', url: `/api/organisations/${district.id}/rostering/imports/${strict.id}/apply`, headers: admin });
    expect(refusedApply.json()).toMatchObject({ code: 'roster_import_has_errors' });
    expect(await t.app.db.selectFrom('members').select('id').where('organisation_id', '=', elementary.id).execute()).toEqual([]);

    await apply(t, admin, district.id, imported.id);
    expect((await t.app.db.selectFrom('members').select('email').where('organisation_id', '=', elementary.id).execute()).map((m) => m.email)).toEqual(['ok@springfield.example.org']);
  });

  it('reads mixed line endings and a byte order mark as the rows they are', async () => {
    const rows = [
      userRow('usr-crlf', 'Carla', 'Crlf', 'crlf@springfield.example.org'),
      userRow('usr-lf', 'Lee', 'Lf', 'lf@springfield.example.org'),
      userRow('usr-cr', 'Cora', 'Cr', 'cr@springfield.example.org'),
    ].map((r) => r.join(','));
    const users = `\uFEFF${USERS_HEADER}\r\n${rows[0]}\r\n${rows[1]}\n${rows[2]}\r`;
    const roles = [ROLES_HEADER, ...['usr-crlf', 'usr-lf', 'usr-cr', 'usr-nobody'].map((u, i) => `r${i},,,${u},primary,teacher,,,org-school-101,`)].join('\n');
    const { district, admin } = await rosterDistrict(t);
    const imported = await preview(t, admin, district.id, zipWithPython(sampleFiles({ 'users.csv': users, 'roles.csv': roles })));
    expect(imported.counts).toMatchObject({ add: 3, errors: 0 });
    expect(imported.preview.add.map((r) => [r.sourcedId, r.name])).toEqual([['usr-crlf', 'Carla Crlf'], ['usr-lf', 'Lee Lf'], ['usr-cr', 'Cora Cr']]);
  });
});

describe('OneRoster 1.1 and an independent CSV writer', () => {
  it('reads a 1.1 export: role and orgSourcedIds in users.csv, its one administrator role', async () => {
    const manifest = ['propertyName,value', 'manifest.version,1.0', 'oneroster.version,1.1', 'file.academicSessions,absent', 'file.categories,absent', 'file.classes,absent',
      'file.classResources,absent', 'file.courses,absent', 'file.courseResources,absent', 'file.demographics,absent', 'file.enrollments,absent', 'file.lineItems,absent',
      'file.orgs,bulk', 'file.resources,absent', 'file.results,absent', 'file.users,bulk', 'source.systemName,Example SIS'].join('\n');
    const users = [
      'sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password',
      'u11-1,,,true,org-school-101,teacher,jdoe,,Jane,Doe,,,jdoe@springfield.example.org,,,,,',
      'u11-2,,,true,"org-school-102,org-school-101",administrator,rroe,,Rich,Roe,,,rroe@springfield.example.org,,,,,',
      'u11-3,,,true,org-school-101,student,kid,,Kid,Doe,,,kid@springfield.example.org,,,,03,',
    ].join('\n');
    const { district, admin } = await rosterDistrict(t);
    const imported = await preview(t, admin, district.id, zipWithPython([{ name: 'manifest.csv', data: manifest }, { name: 'orgs.csv', data: sampleFile('orgs.csv') }, { name: 'users.csv', data: users }]));
    expect(imported).toMatchObject({ version: '1.1', counts: { add: 2, students: 1, errors: 0 } });
    expect(imported.preview.add.map((r) => [r.sourcedId, r.role, r.organisation])).toEqual([['u11-1', 'teacher', 'Springfield Elementary'], ['u11-2', 'administrator', 'Springfield Middle']]);
  });

  it('round-trips names Python\'s csv module quotes (commas, quotes, line breaks, accents) into the members', async () => {
    const people = [
      ['rt-1', 'Zoë', "O'Brien, Jr.", 'zoe@springfield.example.org'],
      ['rt-2', 'Anne "Annie"', 'Lee', 'annie@springfield.example.org'],
      ['rt-3', 'José María', 'Núñez\nGarcía', 'jose@springfield.example.org'],
      ['rt-4', '李', '小龙', 'li@springfield.example.org'],
    ];
    const users = csvWithPython([USERS_HEADER.split(','), ...people.map(([id, given, family, email]) => userRow(id!, given!, family!, email!))]);
    const roles = csvWithPython([ROLES_HEADER.split(','), ...people.map(([id], i) => [`r${i}`, '', '', id!, 'primary', 'teacher', '', '', 'org-school-101', ''])]);
    const { district, elementary, admin } = await rosterDistrict(t);
    const imported: RosterImport = await preview(t, admin, district.id, zipWithPython(sampleFiles({ 'users.csv': users, 'roles.csv': roles })));
    expect(imported.counts).toMatchObject({ add: 4, errors: 0 });
    await apply(t, admin, district.id, imported.id);
    const members = await t.app.db.selectFrom('members').select(['email', 'display_name']).where('organisation_id', '=', elementary.id).execute();
    expect(Object.fromEntries(members.map((m) => [m.email, m.display_name]))).toEqual(Object.fromEntries(people.map(([, given, family, email]) => [email, `${given} ${family}`])));
  });
});
