import {
  APP_PERMISSION_EVERYONE,
  findApp,
  IMAGE_SEARCH_GOOGLE,
  IMAGE_SEARCH_PIXABAY,
  resolveSetting,
  type AppPermission,
  type AppSettingValue,
  type AppSettingSource,
  type EffectiveSettings,
  type ImageSearchSettingSource,
  type ImageSearchValue,
  type SettingsRead,
} from '@quire/core';

/**
 * Where each setting comes from, when the server said (an answer without sources is a stand-alone organisation's:
 * nothing set above it, no policies).
 */
export function sourcesOf(settings: SettingsRead | undefined): EffectiveSettings | null {
  return settings && 'sources' in settings ? settings : null;
}

/** The source of one setting with the organisation's own value replaced: the same rule as the server (resolveSetting). */
function withOwn<V>(source: { from: string; own: V | null; inheritedDefault: { value: V; setBy: { id: string; name: string } } | null }, own: V | null, builtIn: V) {
  const above = source.inheritedDefault ? [{ ...source.inheritedDefault.setBy, policy: { mode: 'default' as const, value: source.inheritedDefault.value } }] : [];
  return resolveSetting<V>([{ id: '', name: '', own }, ...above], builtIn);
}

/** The settings as they are once the organisation's own value of an app is `own` (null: back to the default). */
export function withOwnApp(settings: SettingsRead, appId: string, own: AppSettingValue | null): SettingsRead {
  const apps: Record<string, AppPermission> = { ...settings.apps };
  const full = sourcesOf(settings);
  const source = full?.sources.apps[appId as keyof EffectiveSettings['sources']['apps']];
  if (!full || !source) {
    if (own === 1 || own === -1) apps[appId] = own;
    else delete apps[appId];
    return { ...settings, apps: apps as SettingsRead['apps'] };
  }
  // Locked above: the server refuses the change, nothing moves.
  if (source.from === 'locked') return settings;
  const resolved = withOwn(source, own, APP_PERMISSION_EVERYONE as AppSettingValue);
  if (resolved.value === 1 || resolved.value === -1) apps[appId] = resolved.value;
  else delete apps[appId];
  const teacherOnly = findApp(appId)?.teacherOnly ?? false;
  const next: AppSettingSource = { ...resolved, value: teacherOnly && resolved.value === APP_PERMISSION_EVERYONE ? 1 : resolved.value };
  return { ...full, apps: apps as SettingsRead['apps'], sources: { ...full.sources, apps: { ...full.sources.apps, [appId]: next } } };
}

/** The settings as they are once the organisation's own image search is `own` (null: back to the default). */
export function withOwnImageSearch(settings: SettingsRead, own: ImageSearchValue | null): SettingsRead {
  const full = sourcesOf(settings);
  if (!full) return { ...settings, imageSearch: own === IMAGE_SEARCH_PIXABAY ? IMAGE_SEARCH_PIXABAY : null };
  const source = full.sources.imageSearch;
  if (source.from === 'locked') return settings;
  const resolved: ImageSearchSettingSource = withOwn(source, own, IMAGE_SEARCH_GOOGLE as ImageSearchValue);
  return { ...full, imageSearch: resolved.value === IMAGE_SEARCH_PIXABAY ? IMAGE_SEARCH_PIXABAY : null, sources: { ...full.sources, imageSearch: resolved } };
}

/**
 * What to store as the organisation's own value when its admin picks `wanted`: nothing of its own (null) when that
 * already gives it, following the district default or the built-in value; else the value itself, 0 and 'google'
 * included ('Teachers and students' and Google, chosen against a district default).
 */
export function ownValueFor<V>(source: { inheritedDefault: { value: V } | null } | undefined, wanted: V, builtIn: V): V | null {
  const followed = source?.inheritedDefault ? source.inheritedDefault.value : builtIn;
  return wanted === builtIn && followed === builtIn ? null : wanted;
}
