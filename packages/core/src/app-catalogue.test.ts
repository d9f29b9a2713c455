import { describe, expect, it } from 'vitest';
import { allowedApps, APP_CATALOGUE, appPermissionChoices, appProviderName, effectiveAppPermission, findApp, isAppAllowed, withProductName } from './app-catalogue.js';
import { settingsUpdateSchema } from './schemas/settings.js';

describe('the app catalogue (spec §3)', () => {
  it('has the ten apps with their flags', () => {
    expect(APP_CATALOGUE.map((a) => a.id)).toEqual([
      'adobe', 'animatedemojis', 'bitmoji', 'canva', 'giphy', 'googledrive', 'googlemaps', 'sketchfab', 'teacherstickers', 'graphicorganizers',
    ]);
    expect(APP_CATALOGUE.filter((a) => a.premium).map((a) => a.id)).toEqual(['animatedemojis', 'googlemaps', 'sketchfab', 'teacherstickers', 'graphicorganizers']);
    expect(APP_CATALOGUE.filter((a) => a.teacherOnly).map((a) => a.id)).toEqual(['bitmoji']);
    expect(APP_CATALOGUE.filter((a) => a.isNew).map((a) => a.id)).toEqual(['adobe']);
    expect(findApp('adobe')?.name).toBe('AI Image Generator');
    expect(findApp('sketchfab')?.name).toBe('3D Models');
    for (const app of APP_CATALOGUE) {
      expect(app.strings.goodToKnow.length, app.id).toBeGreaterThan(0);
      expect(app.strings.beAware.length, app.id).toBeGreaterThan(0);
      expect(app.ageNote, app.id).not.toBe('');
    }
  });

  it('offers teacher-only apps only Teachers only and Disabled for everyone', () => {
    expect(appPermissionChoices({ teacherOnly: true }).map((c) => c.value)).toEqual([1, -1]);
    expect(appPermissionChoices({ teacherOnly: false }).map((c) => c.value)).toEqual([null, 1, -1]);
    expect(effectiveAppPermission({ teacherOnly: true }, undefined)).toBe(1);
    expect(effectiveAppPermission({ teacherOnly: false }, undefined)).toBeNull();
  });

  it.each([
    [false, undefined, 'student', true],
    [false, undefined, 'teacher', true],
    [false, 1, 'student', false],
    [false, 1, 'teacher', true],
    [false, -1, 'teacher', false],
    [false, -1, 'student', false],
    [true, undefined, 'student', false],
    [true, undefined, 'teacher', true],
    [true, -1, 'teacher', false],
  ] as const)('teacherOnly %s, setting %s: a %s may use it: %s', (teacherOnly, stored, kind, allowed) => {
    expect(isAppAllowed({ teacherOnly }, stored, kind)).toBe(allowed);
  });

  it('never gives a student bitmoji', () => {
    expect(allowedApps({}, 'student').map((a) => a.id)).not.toContain('bitmoji');
    expect(allowedApps({}, 'teacher').map((a) => a.id)).toContain('bitmoji');
  });

  it('accepts partial updates of known apps only', () => {
    expect(settingsUpdateSchema.safeParse({ apps: { giphy: -1 } }).success).toBe(true);
    expect(settingsUpdateSchema.safeParse({ apps: { giphy: null }, imageSearch: null }).success).toBe(true);
    expect(settingsUpdateSchema.safeParse({ apps: { nope: 1 } }).success).toBe(false);
    expect(settingsUpdateSchema.safeParse({ apps: { giphy: 2 } }).success).toBe(false);
    expect(settingsUpdateSchema.safeParse({}).success).toBe(false);
    expect(settingsUpdateSchema.safeParse({ imageSearch: 'bing' }).success).toBe(false);
    // A school's own choice against a district default: 'Teachers and students' (0) and Google, on purpose.
    expect(settingsUpdateSchema.safeParse({ apps: { giphy: 0 }, imageSearch: 'google' }).success).toBe(true);
    // Not for a teacher-only app, which never offers 'Teachers and students'.
    expect(settingsUpdateSchema.safeParse({ apps: { bitmoji: 0 } }).success).toBe(false);
  });
});

describe('the privacy texts', () => {
  it("name the product by '{product}', never as 'the product'", () => {
    for (const app of APP_CATALOGUE) {
      const texts = [app.strings.summary, app.strings.detail, ...app.strings.goodToKnow, ...app.strings.beAware, app.ageNote];
      for (const text of texts) expect(text, app.id).not.toMatch(/the product\b/i);
    }
    expect(withProductName('No personal data leaves {product}. {product} sends nothing.', 'Quire')).toBe('No personal data leaves Quire. Quire sends nothing.');
  });

  it('name the provider of the apps named for what they do (spec §3: adobe, sketchfab)', () => {
    expect(APP_CATALOGUE.filter((a) => appProviderName(a) !== a.name).map((a) => [a.id, appProviderName(a)])).toEqual([['adobe', 'Adobe'], ['sketchfab', 'Sketchfab']]);
  });
});
