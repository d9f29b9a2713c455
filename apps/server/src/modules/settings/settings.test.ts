import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;
const url = (orgId: string) => `/api/organisations/${orgId}/settings`;

async function adminOf(orgId: string) {
  const email = unique('admin');
  await buildAdmin(t.app.db, { organisationId: orgId, email });
  return signIn(t.app, { email });
}

async function storedSettings(orgId: string) {
  return (await t.app.db.selectFrom('organisations').select('settings').where('id', '=', orgId).executeTakeFirstOrThrow()).settings;
}

function patch(headers: Partial<SignedInHeaders>, orgId: string, payload: unknown) {
  return t.app.inject({ method: 'PATCH', url: url(orgId), headers, payload: payload as Record<string, unknown> });
}

const UPDATE = 'mutation updateSettings($orgId: ID!, $settings: JSONObject!) { updateSettings(orgId: $orgId, settings: $settings) { apps imageSearch } }';

describe('settings read and update', () => {
  it('reads the settings, and merges a partial change into them', async () => {
    const org = await buildOrganisation(t.app.db, { settings: JSON.stringify({ apps: { giphy: -1 }, imageSearch: 'pixabay' }) });
    const { headers, userId } = await adminOf(org.id);

    const read = await t.app.inject({ method: 'GET', url: `${url(org.id)}?userId=${userId}`, headers });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ apps: { giphy: -1 }, imageSearch: 'pixabay' });

    const changed = await patch(headers, org.id, { apps: { canva: 1 } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ apps: { giphy: -1, canva: 1 }, imageSearch: 'pixabay' });

    const reset = await patch(headers, org.id, { apps: { giphy: null }, imageSearch: null });
    expect(reset.json()).toEqual({ apps: { canva: 1 }, imageSearch: null });
    expect(await storedSettings(org.id)).toEqual({ apps: { canva: 1 } });
  });

  it('keeps both changes when two admins change different apps at the same moment', async () => {
    const org = await buildOrganisation(t.app.db);
    const first = await adminOf(org.id);
    const second = await adminOf(org.id);
    const [a, b] = await Promise.all([
      patch(first.headers, org.id, { apps: { giphy: -1 } }),
      patch(second.headers, org.id, { apps: { sketchfab: 1 } }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await storedSettings(org.id)).apps).toEqual({ giphy: -1, sketchfab: 1 });
  });

  it('records every change in the audit trail with its old and new value', async () => {
    const org = await buildOrganisation(t.app.db, { settings: JSON.stringify({ apps: { canva: 1 } }) });
    const { headers, userId } = await adminOf(org.id);
    await patch(headers, org.id, { apps: { canva: -1, giphy: 1 }, imageSearch: 'pixabay' });
    const audit = await t.app.db.selectFrom('audit_events').selectAll().where('organisation_id', '=', org.id).where('action', '=', 'settings.update').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actor_user_id).toBe(userId);
    expect(audit[0]?.details).toEqual({
      changes: [
        { setting: 'apps.canva', old: 1, new: -1 },
        { setting: 'apps.giphy', old: null, new: 1 },
        { setting: 'imageSearch', old: null, new: 'pixabay' },
      ],
    });
  });

  it('refuses an unknown app, a value other than 1, -1 or null, and an empty change with a 400, changing nothing', async () => {
    const org = await buildOrganisation(t.app.db, { settings: JSON.stringify({ apps: { giphy: -1 } }) });
    const { headers } = await adminOf(org.id);
    for (const body of [{ apps: { snapchat: 1 } }, { apps: { giphy: 2 } }, { apps: { giphy: '1' } }, { imageSearch: 'bing' }, {}, { apps: {} }, { other: true }]) {
      const response = await patch(headers, org.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const gql = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: UPDATE, variables: { orgId: org.id, settings: { apps: { nope: -1 } } } } });
    expect(gql.json().errors[0].extensions.code).toBe('invalid_settings');
    expect(await storedSettings(org.id)).toEqual({ apps: { giphy: -1 } });
  });

  it('updateSettings (GraphQL) merges the same way', async () => {
    const org = await buildOrganisation(t.app.db, { settings: JSON.stringify({ apps: { giphy: -1 } }) });
    const { headers } = await adminOf(org.id);
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: UPDATE, variables: { orgId: org.id, settings: { apps: { bitmoji: -1 }, imageSearch: 'pixabay' } } } });
    expect(response.json()).toEqual({ data: { updateSettings: { apps: { giphy: -1, bitmoji: -1 }, imageSearch: 'pixabay' } } });
  });

  it('gives another organisation’s admin, a teacher, a library manager (writes) and a signed-out caller nothing, and changes nothing', async () => {
    const org = await buildOrganisation(t.app.db, { org_libraries: true, settings: JSON.stringify({ apps: { giphy: -1 } }) });
    const other = await buildOrganisation(t.app.db);
    const stranger = await adminOf(other.id);
    const teacherEmail = unique('teacher');
    await buildTeacher(t.app.db, { organisation_id: org.id, email: teacherEmail });
    const teacher = await signIn(t.app, { email: teacherEmail });
    const managerEmail = unique('manager');
    await buildTeacher(t.app.db, { organisation_id: org.id, email: managerEmail, role: 400 });
    const manager = await signIn(t.app, { email: managerEmail });
    const origin = stranger.headers.origin;

    for (const [who, headers, readStatus] of [
      ['other admin', stranger.headers, 403],
      ['teacher', teacher.headers, 403],
      ['signed out', { origin }, 401],
    ] as const) {
      const read = await t.app.inject({ method: 'GET', url: url(org.id), headers });
      expect(read.statusCode, who).toBe(readStatus);
      expect(read.json().apps, who).toBeUndefined();
    }
    for (const [who, headers, status] of [
      ['other admin', stranger.headers, 403],
      ['teacher', teacher.headers, 403],
      ['library manager', manager.headers, 403],
      ['signed out', { origin }, 401],
    ] as const) {
      expect((await patch(headers, org.id, { apps: { giphy: 1 } })).statusCode, who).toBe(status);
      const gql = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: UPDATE, variables: { orgId: org.id, settings: { apps: { giphy: 1 } } } } });
      expect(gql.json().data, who).toBeNull();
    }
    // A library manager reads (as the console's other screens), but never writes.
    expect((await t.app.inject({ method: 'GET', url: url(org.id), headers: manager.headers })).statusCode).toBe(200);
    expect(await storedSettings(org.id)).toEqual({ apps: { giphy: -1 } });
  });

  it('refuses a cross-site change (Origin check)', async () => {
    const org = await buildOrganisation(t.app.db);
    const { headers } = await adminOf(org.id);
    const response = await patch({ ...headers, origin: 'https://evil.example' }, org.id, { apps: { giphy: -1 } });
    expect(response.statusCode).toBe(403);
    expect((await storedSettings(org.id)).apps).toEqual({});
  });
});

describe('which apps a user may use', () => {
  const appsUrl = (orgId: string, userId: string) => `/api/organisations/${orgId}/users/${userId}/apps`;

  it('never gives a student a teacher-only app or one set to Teachers only; -1 disables for everyone', async () => {
    const org = await buildOrganisation(t.app.db, { settings: JSON.stringify({ apps: { giphy: 1, canva: -1 }, imageSearch: 'pixabay' }) });
    const admin = await adminOf(org.id);
    const studentEmail = unique('student');
    const teacherEmail = unique('teacher');
    const student = await signIn(t.app, { email: studentEmail });
    const teacher = await signIn(t.app, { email: teacherEmail });
    await buildTeacher(t.app.db, { organisation_id: org.id, email: studentEmail, user_id: student.userId, is_student: true });
    await buildTeacher(t.app.db, { organisation_id: org.id, email: teacherEmail, user_id: teacher.userId });

    const forStudent = await t.app.inject({ method: 'GET', url: appsUrl(org.id, student.userId), headers: student.headers });
    expect(forStudent.statusCode).toBe(200);
    const studentApps = forStudent.json().apps.map((a: { id: string }) => a.id);
    expect(forStudent.json()).toMatchObject({ kind: 'student', imageSearch: 'pixabay' });
    expect(studentApps).toEqual(['adobe', 'animatedemojis', 'googledrive', 'googlemaps', 'sketchfab', 'teacherstickers', 'graphicorganizers']);

    const forTeacher = await t.app.inject({ method: 'GET', url: appsUrl(org.id, teacher.userId), headers: admin.headers });
    expect(forTeacher.json().kind).toBe('teacher');
    expect(forTeacher.json().apps.map((a: { id: string }) => a.id)).toEqual([
      'adobe', 'animatedemojis', 'bitmoji', 'giphy', 'googledrive', 'googlemaps', 'sketchfab', 'teacherstickers', 'graphicorganizers',
    ]);

    await patch(admin.headers, org.id, { apps: { bitmoji: -1 }, imageSearch: null });
    const after = await t.app.inject({ method: 'GET', url: appsUrl(org.id, teacher.userId), headers: teacher.headers });
    expect(after.json().apps.map((a: { id: string }) => a.id)).not.toContain('bitmoji');
    expect(after.json().imageSearch).toBe('google');
  });

  it('answers a teacher only about themself, and nobody outside the organisation', async () => {
    const org = await buildOrganisation(t.app.db);
    const other = await buildOrganisation(t.app.db);
    const stranger = await adminOf(other.id);
    const aEmail = unique('a');
    const bEmail = unique('b');
    const a = await signIn(t.app, { email: aEmail });
    const b = await signIn(t.app, { email: bEmail });
    await buildTeacher(t.app.db, { organisation_id: org.id, email: aEmail, user_id: a.userId });
    await buildTeacher(t.app.db, { organisation_id: org.id, email: bEmail, user_id: b.userId });
    expect((await t.app.inject({ method: 'GET', url: appsUrl(org.id, b.userId), headers: a.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: appsUrl(org.id, a.userId), headers: stranger.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: appsUrl(org.id, a.userId), headers: { origin: a.headers.origin } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: appsUrl(other.id, a.userId), headers: a.headers })).statusCode).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the settings calls with their answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    expect(Object.keys(paths['/api/organisations/{orgId}/settings'] ?? {})).toEqual(expect.arrayContaining(['get', 'patch']));
    expect(paths['/api/organisations/{orgId}/settings']?.patch?.responses['200']).toBeDefined();
    expect(paths['/api/organisations/{orgId}/users/{userId}/apps']?.get?.responses['200']).toBeDefined();
    expect(paths['/lti/launch']?.post).toBeDefined();
    expect(paths['/lti/cartridge.xml']?.get).toBeDefined();
  });
});
