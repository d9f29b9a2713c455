import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectiveSettingsSchema, settingPolicyMessages, type EffectiveSettings } from '@quire/core';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../../test/factories.js';
import { graphql } from '../../../test/teachers.helpers.js';
import { recordStatements, sessionReads } from '../../../test/statements.js';

// Settings that flow down (docs/settings.md "Districts"): a district's policies over its schools' settings, through
// the API (REST and GraphQL) a school admin, a district admin and the product call.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@district.example.org`;
const api = (orgId: string, rest: string) => `/api/organisations/${orgId}/${rest}`;

async function adminOf(orgId: string): Promise<SignedInHeaders> {
  const email = unique('admin');
  await buildAdmin(t.app.db, { organisationId: orgId, email });
  return (await signIn(t.app, { email })).headers;
}

async function tree(options: { schoolSettings?: Array<Record<string, unknown>>; region?: boolean } = {}) {
  const region = options.region ? await buildOrganisation(t.app.db, { name: `Region ${Math.random().toString(36).slice(2, 6)}` }) : null;
  const district = await buildOrganisation(t.app.db, { name: `District ${Math.random().toString(36).slice(2, 6)}`, parent_id: region?.id ?? null });
  const settings = options.schoolSettings ?? [{ apps: {} }, { apps: {} }];
  const schools = [];
  for (const [i, s] of settings.entries()) {
    schools.push(await buildOrganisation(t.app.db, { name: `School ${i}`, parent_id: district.id, settings: JSON.stringify(s) }));
  }
  return { region, district, schools };
}

const patchSettings = (headers: Partial<SignedInHeaders>, orgId: string, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url: api(orgId, 'settings'), headers, payload: payload as Record<string, unknown> });
const patchPolicies = (headers: Partial<SignedInHeaders>, orgId: string, payload: unknown) =>
  t.app.inject({ method: 'PATCH', url: api(orgId, 'setting-policies'), headers, payload: payload as Record<string, unknown> });

async function effective(headers: SignedInHeaders, orgId: string): Promise<EffectiveSettings> {
  const response = await t.app.inject({ method: 'GET', url: api(orgId, 'settings?include=sources'), headers });
  expect(response.statusCode, response.body).toBe(200);
  return effectiveSettingsSchema.parse(response.json());
}

async function stored(orgId: string) {
  return t.app.db.selectFrom('organisations').select(['settings', 'setting_policies']).where('id', '=', orgId).executeTakeFirstOrThrow();
}

const UPDATE_SETTINGS = 'mutation u($orgId: ID!, $settings: JSONObject!) { updateSettings(orgId: $orgId, settings: $settings) { apps imageSearch } }';
const UPDATE_POLICIES =
  'mutation p($orgId: ID!, $policies: JSONObject!) { updateSettingPolicies(orgId: $orgId, policies: $policies) { organisationId apps imageSearch sources policies hasOrganisationsBelow } }';

describe('a district locks a setting for its schools', () => {
  it('applies the locked value to every school, refuses the school admin’s change (REST and GraphQL), and gives each school its own value back when schools decide again', async () => {
    const { district, schools } = await tree({ schoolSettings: [{ apps: { giphy: 1 } }, { apps: {} }] });
    const [north, south] = schools as [NonNullable<(typeof schools)[0]>, NonNullable<(typeof schools)[0]>];
    const districtAdmin = await adminOf(district.id);
    const northAdmin = await adminOf(north.id);

    const locked = await patchPolicies(districtAdmin, district.id, { apps: { giphy: { mode: 'locked', value: -1 } } });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json().policies).toEqual({ apps: { giphy: { mode: 'locked', value: -1 } }, imageSearch: null });
    expect(locked.json().hasOrganisationsBelow).toBe(true);

    for (const school of [north, south]) {
      const read = await t.app.inject({ method: 'GET', url: api(school.id, 'settings'), headers: districtAdmin });
      expect(read.json().apps.giphy).toBe(-1);
    }
    const atNorth = await effective(northAdmin, north.id);
    expect(atNorth.sources.apps.giphy).toEqual({
      value: -1,
      from: 'locked',
      setBy: { id: district.id, name: district.name },
      own: 1,
      inheritedDefault: null,
    });
    expect(atNorth.hasOrganisationsBelow).toBe(false);

    // The school admin, by REST and by GraphQL: refused with the district named, nothing written.
    const refused = await patchSettings(northAdmin, north.id, { apps: { giphy: 0 } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'setting_locked_by_district',
      message: settingPolicyMessages.refused(district.name),
      settings: ['apps.giphy'],
      lockedBy: { id: district.id, name: district.name },
    });
    const viaGraphql = await graphql(t.app, northAdmin, UPDATE_SETTINGS, { orgId: north.id, settings: { apps: { giphy: null } } });
    expect(viaGraphql.data).toBeNull();
    expect(viaGraphql.errors?.[0]).toMatchObject({ message: settingPolicyMessages.refused(district.name), extensions: { code: 'setting_locked_by_district' } });
    // The district's admin too: a lock is changed where it was set.
    expect((await patchSettings(districtAdmin, north.id, { apps: { giphy: 0 } })).statusCode).toBe(409);
    // A change naming a locked setting among others changes none of them.
    expect((await patchSettings(northAdmin, north.id, { apps: { canva: -1, giphy: 1 } })).statusCode).toBe(409);
    expect((await stored(north.id)).settings).toEqual({ apps: { giphy: 1 } });
    // Settings the district left to schools stay the school's to change.
    expect((await patchSettings(northAdmin, north.id, { apps: { canva: -1 } })).json().apps).toEqual({ giphy: -1, canva: -1 });

    const decide = await patchPolicies(districtAdmin, district.id, { apps: { giphy: null } });
    expect(decide.json().policies.apps).toEqual({});
    expect((await effective(northAdmin, north.id)).sources.apps.giphy).toMatchObject({ value: 1, from: 'own' });
    expect((await effective(districtAdmin, south.id)).sources.apps.giphy).toMatchObject({ value: 0, from: 'built-in' });
  });

  it('refuses a locked-off app to a school’s teacher in the product’s “which apps may this user use” call', async () => {
    const { district, schools } = await tree({ schoolSettings: [{ apps: {}, imageSearch: 'google' }] });
    const school = schools[0]!;
    const districtAdmin = await adminOf(district.id);
    const email = unique('teacher');
    const teacher = await signIn(t.app, { email });
    await buildTeacher(t.app.db, { organisation_id: school.id, email, user_id: teacher.userId });
    const appsOf = async () => (await t.app.inject({ method: 'GET', url: api(school.id, `users/${teacher.userId}/apps`), headers: teacher.headers })).json();
    expect((await appsOf()).apps.map((a: { id: string }) => a.id)).toContain('sketchfab');

    await patchPolicies(districtAdmin, district.id, { apps: { sketchfab: { mode: 'locked', value: -1 } }, imageSearch: { mode: 'locked', value: 'pixabay' } });
    const after = await appsOf();
    expect(after.apps.map((a: { id: string }) => a.id)).not.toContain('sketchfab');
    expect(after.imageSearch).toBe('pixabay');
  });
});

describe('a district default', () => {
  it('moves every school that has not chosen its own value; a school may choose its own, and go back to the district default', async () => {
    const { district, schools } = await tree({ schoolSettings: [{ apps: {} }, { apps: { canva: 0 } }] });
    const [follower, chooser] = schools as [NonNullable<(typeof schools)[0]>, NonNullable<(typeof schools)[0]>];
    const districtAdmin = await adminOf(district.id);
    const followerAdmin = await adminOf(follower.id);

    await patchPolicies(districtAdmin, district.id, { apps: { canva: { mode: 'default', value: 1 } } });
    expect((await effective(followerAdmin, follower.id)).sources.apps.canva).toMatchObject({ value: 1, from: 'default', setBy: { id: district.id } });
    expect((await effective(districtAdmin, chooser.id)).sources.apps.canva).toMatchObject({ value: 0, from: 'own', inheritedDefault: { value: 1 } });

    await patchPolicies(districtAdmin, district.id, { apps: { canva: { mode: 'default', value: -1 } } });
    expect((await effective(followerAdmin, follower.id)).apps.canva).toBe(-1);
    expect((await effective(districtAdmin, chooser.id)).apps.canva).toBeUndefined();

    // The school chooses 'Teachers and students' on purpose (0), then returns to the district default (null).
    expect((await patchSettings(followerAdmin, follower.id, { apps: { canva: 0 } })).json().apps.canva).toBeUndefined();
    expect((await effective(followerAdmin, follower.id)).sources.apps.canva).toMatchObject({ value: 0, from: 'own' });
    expect((await patchSettings(followerAdmin, follower.id, { apps: { canva: null } })).json().apps.canva).toBe(-1);
    expect((await stored(follower.id)).settings).toEqual({ apps: {} });

    // Image search the same way: 'google' is a school's own choice against a district default of Pixabay.
    await patchPolicies(districtAdmin, district.id, { imageSearch: { mode: 'default', value: 'pixabay' } });
    expect((await effective(followerAdmin, follower.id)).imageSearch).toBe('pixabay');
    expect((await patchSettings(followerAdmin, follower.id, { imageSearch: 'google' })).json().imageSearch).toBeNull();
  });
});

describe('who sets a district’s policies', () => {
  it('only the district’s admins: a school admin, a library manager, another district’s admin and a signed-out caller are refused, and nothing changes', async () => {
    const { district, schools } = await tree();
    const school = schools[0]!;
    const schoolAdmin = await adminOf(school.id);
    const other = await adminOf((await tree()).district.id);
    const managerEmail = unique('manager');
    const manager = await signIn(t.app, { email: managerEmail });
    await t.app.db.updateTable('organisations').set({ org_libraries: true }).where('id', '=', district.id).execute();
    await buildTeacher(t.app.db, { organisation_id: district.id, email: managerEmail, user_id: manager.userId, role: 400 });
    const change = { apps: { giphy: { mode: 'locked', value: -1 } } };
    for (const [who, headers, status] of [
      ['school admin', schoolAdmin, 403],
      ['library manager', manager.headers, 403],
      ['other district admin', other, 403],
      ['signed out', { origin: schoolAdmin.origin }, 401],
    ] as const) {
      expect((await patchPolicies(headers, district.id, change)).statusCode, who).toBe(status);
      const gql = await graphql(t.app, headers as SignedInHeaders, UPDATE_POLICIES, { orgId: district.id, policies: change });
      expect(gql.data, who).toBeNull();
    }
    expect((await stored(district.id)).setting_policies).toEqual({});
  });

  it('refuses policies at an organisation with nothing under it, and bad policies, with nothing changed', async () => {
    const { district, schools } = await tree();
    const districtAdmin = await adminOf(district.id);
    const leaf = await patchPolicies(districtAdmin, schools[0]!.id, { apps: { giphy: { mode: 'default', value: 1 } } });
    expect(leaf.statusCode).toBe(409);
    expect(leaf.json().code).toBe('setting_policies_need_schools');
    for (const body of [
      {},
      { apps: {} },
      { apps: { giphy: { mode: 'forced', value: 1 } } },
      { apps: { giphy: { mode: 'locked', value: 2 } } },
      { apps: { giphy: { mode: 'locked' } } },
      { apps: { bitmoji: { mode: 'locked', value: 0 } } },
      { apps: { snapchat: { mode: 'locked', value: -1 } } },
      { imageSearch: { mode: 'default', value: 'bing' } },
      { other: true },
    ]) {
      expect((await patchPolicies(districtAdmin, district.id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const gql = await graphql(t.app, districtAdmin, UPDATE_POLICIES, { orgId: district.id, policies: { apps: { giphy: { mode: 'locked', value: 7 } } } });
    expect(gql.errors?.[0]?.extensions?.code).toBe('invalid_settings');
    // A teacher-only app's own value cannot be 'Teachers and students' either.
    expect((await patchSettings(districtAdmin, schools[0]!.id, { apps: { bitmoji: 0 } })).statusCode).toBe(400);
    expect((await stored(district.id)).setting_policies).toEqual({});
  });

  it('sets policies by GraphQL too, and records every change in the audit trail with its old and new policy', async () => {
    const { district } = await tree();
    const districtAdmin = await adminOf(district.id);
    const first = await graphql<{ updateSettingPolicies: EffectiveSettings }>(t.app, districtAdmin, UPDATE_POLICIES, {
      orgId: district.id,
      policies: { apps: { giphy: { mode: 'default', value: 1 } }, imageSearch: { mode: 'locked', value: 'pixabay' } },
    });
    expect(first.data?.updateSettingPolicies.policies).toEqual({ apps: { giphy: { mode: 'default', value: 1 } }, imageSearch: { mode: 'locked', value: 'pixabay' } });
    await patchPolicies(districtAdmin, district.id, { apps: { giphy: { mode: 'locked', value: 1 } }, imageSearch: null });
    // The same change again (a double-click) records nothing more.
    await patchPolicies(districtAdmin, district.id, { apps: { giphy: { mode: 'locked', value: 1 } } });
    const audit = await t.app.db
      .selectFrom('audit_events')
      .select(['details'])
      .where('organisation_id', '=', district.id)
      .where('action', '=', 'settings.policies.update')
      .orderBy('created_at')
      .execute();
    expect(audit.map((a) => a.details)).toEqual([
      {
        changes: [
          { setting: 'apps.giphy', old: null, new: { mode: 'default', value: 1 } },
          { setting: 'imageSearch', old: null, new: { mode: 'locked', value: 'pixabay' } },
        ],
      },
      {
        changes: [
          { setting: 'apps.giphy', old: { mode: 'default', value: 1 }, new: { mode: 'locked', value: 1 } },
          { setting: 'imageSearch', old: { mode: 'locked', value: 'pixabay' }, new: null },
        ],
      },
    ]);
  });
});

describe('a region over districts over schools', () => {
  it('a region’s lock wins over a district’s lock and refuses the district’s own policy; a district default wins over the region’s', async () => {
    const { region, district, schools } = await tree({ region: true, schoolSettings: [{ apps: { giphy: 0 } }] });
    const school = schools[0]!;
    const regionAdmin = await adminOf(region!.id);
    const districtAdmin = await adminOf(district.id);

    await patchPolicies(districtAdmin, district.id, { apps: { giphy: { mode: 'locked', value: 1 }, canva: { mode: 'default', value: 1 } } });
    await patchPolicies(regionAdmin, region!.id, { apps: { giphy: { mode: 'locked', value: -1 }, canva: { mode: 'default', value: -1 } } });
    const atSchool = await effective(regionAdmin, school.id);
    expect(atSchool.sources.apps.giphy).toMatchObject({ value: -1, from: 'locked', setBy: { id: region!.id }, own: 0 });
    expect(atSchool.sources.apps.canva).toMatchObject({ value: 1, from: 'default', setBy: { id: district.id } });
    // The district is below the region: its own value and its policy for the locked setting are refused.
    const refused = await patchPolicies(districtAdmin, district.id, { apps: { giphy: null } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(settingPolicyMessages.refused(region!.name));
    expect((await patchSettings(districtAdmin, district.id, { apps: { giphy: 1 } })).statusCode).toBe(409);

    // The region lets its districts decide: the district's lock applies again, and then the school's own value.
    await patchPolicies(regionAdmin, region!.id, { apps: { giphy: null } });
    expect((await effective(districtAdmin, school.id)).sources.apps.giphy).toMatchObject({ value: 1, from: 'locked', setBy: { id: district.id } });
    await patchPolicies(districtAdmin, district.id, { apps: { giphy: null } });
    expect((await effective(districtAdmin, school.id)).sources.apps.giphy).toMatchObject({ value: 0, from: 'own' });
  });
});

describe("'Let schools decide' after a lock (generated cases against the service and the database)", () => {
  const appValue = fc.constantFrom<0 | 1 | -1 | null>(0, 1, -1, null);
  it('gives every school its own previous value back, whatever the schools tried while it was locked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ own: appValue, attempt: appValue }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<0 | 1 | -1>(0, 1, -1),
        fc.boolean(),
        async (schoolPlans, lockValue, startAsDefault) => {
          const { district, schools } = await tree({ schoolSettings: schoolPlans.map((p) => ({ apps: p.own === null ? {} : { googlemaps: p.own } })) });
          const districtAdmin = await adminOf(district.id);
          if (startAsDefault) await patchPolicies(districtAdmin, district.id, { apps: { googlemaps: { mode: 'default', value: -lockValue || 1 } } });
          const before = await Promise.all(schools.map(async (s) => (await effective(districtAdmin, s.id)).sources.apps.googlemaps));

          expect((await patchPolicies(districtAdmin, district.id, { apps: { googlemaps: { mode: 'locked', value: lockValue } } })).statusCode).toBe(200);
          for (const [i, school] of schools.entries()) {
            const schoolAdmin = await adminOf(school.id);
            expect((await effective(schoolAdmin, school.id)).apps.googlemaps ?? 0).toBe(lockValue);
            expect((await patchSettings(schoolAdmin, school.id, { apps: { googlemaps: schoolPlans[i]!.attempt } })).statusCode).toBe(409);
          }
          const back = startAsDefault ? { googlemaps: { mode: 'default', value: -lockValue || 1 } } : { googlemaps: null };
          expect((await patchPolicies(districtAdmin, district.id, { apps: back })).statusCode).toBe(200);
          const after = await Promise.all(schools.map(async (s) => (await effective(districtAdmin, s.id)).sources.apps.googlemaps));
          expect(after).toEqual(before);
        },
      ),
      { numRuns: 6 },
    );
  });
});

describe('a school’s effective settings: one statement a request', () => {
  it('reads the session, the access decision and the settings along the tree in one statement, for every outcome', async () => {
    const { district, schools } = await tree({ schoolSettings: [{ apps: { giphy: 1 } }, { apps: {} }] });
    const [north, south] = schools as [NonNullable<(typeof schools)[0]>, NonNullable<(typeof schools)[0]>];
    const districtAdmin = await adminOf(district.id);
    const northAdmin = await adminOf(north.id);
    expect((await patchPolicies(districtAdmin, district.id, { apps: { canva: { mode: 'default', value: -1 } } })).statusCode).toBe(200);

    const cases = [
      ['the district admin, with sources', districtAdmin, api(north.id, 'settings?include=sources'), 200],
      ['the district admin, the values in force', districtAdmin, api(north.id, 'settings'), 200],
      ['the school admin, its own school', northAdmin, api(north.id, 'settings?include=sources'), 200],
      ['the school admin, a sibling school', northAdmin, api(south.id, 'settings?include=sources'), 403],
      ['the school admin, the district', northAdmin, api(district.id, 'settings?include=sources'), 403],
      ['an organisation that does not exist', districtAdmin, api('no-such-organisation', 'settings?include=sources'), 404],
    ] as const;
    for (const [who, headers, url, status] of cases) {
      const recorded = recordStatements(t.app.db);
      let response;
      try {
        response = await t.app.inject({ method: 'GET', url, headers });
      } finally {
        recorded.stop();
      }
      expect(response.statusCode, `${who}: ${response.body}`).toBe(status);
      expect(recorded.sql, who).toHaveLength(1);
      expect(sessionReads(recorded.sql), who).toEqual({ byToken: 1, byId: 0 });
    }
    const atNorth = await effective(districtAdmin, north.id);
    expect(atNorth.sources.apps.giphy).toMatchObject({ value: 1, from: 'own' });
    expect(atNorth.sources.apps.canva).toMatchObject({ value: -1, from: 'default', setBy: { id: district.id, name: district.name } });
  });

  it('refuses a userId other than the signed-in user’s, after the same one statement', async () => {
    const { district, schools } = await tree();
    const districtAdmin = await adminOf(district.id);
    const response = await t.app.inject({ method: 'GET', url: api(schools[0]!.id, 'settings?include=sources&userId=someone-else'), headers: districtAdmin });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'acting_user_mismatch' });
    const own = await t.app.inject({ method: 'GET', url: api(schools[0]!.id, `settings?include=sources&userId=${districtAdmin['x-acting-user']}`), headers: districtAdmin });
    expect(own.statusCode).toBe(200);
  });
});
