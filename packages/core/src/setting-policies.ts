import { APP_CATALOGUE, type AppCatalogueEntry } from './app-catalogue.js';
import { APP_PERMISSION_DISABLED, APP_PERMISSION_TEACHERS_ONLY, IMAGE_SEARCH_PIXABAY, type AppPermission } from './constants.js';

/**
 * Settings that flow down a tree of organisations (docs/settings.md "Districts"): an organisation with schools under
 * it may, per setting, let its schools decide (no policy), or apply a value to every organisation below it, as a
 * default they may override or locked. Pure: the server resolves with it, the console explains with its answer, and
 * property-based tests compare it with a brute-force model.
 */

/** 'Teachers and students', chosen on purpose: what a school stores to differ from a district default of 1 or -1. */
export const APP_PERMISSION_EVERYONE = 0;
/** An app's value as an organisation chooses it or a district applies it: 0 teachers and students, 1 teachers only, -1 disabled. */
export type AppSettingValue = AppPermission | typeof APP_PERMISSION_EVERYONE;
export const APP_SETTING_VALUES: readonly AppSettingValue[] = [APP_PERMISSION_EVERYONE, APP_PERMISSION_TEACHERS_ONLY, APP_PERMISSION_DISABLED];

/** Google image search allowed, chosen on purpose: what a school stores to differ from a district default of 'pixabay'. */
export const IMAGE_SEARCH_GOOGLE = 'google';
export type ImageSearchValue = typeof IMAGE_SEARCH_PIXABAY | typeof IMAGE_SEARCH_GOOGLE;
export const IMAGE_SEARCH_VALUES: readonly ImageSearchValue[] = [IMAGE_SEARCH_GOOGLE, IMAGE_SEARCH_PIXABAY];

/** 'locked': the organisations below cannot change it; 'default': they follow it until they choose their own. */
export type SettingPolicyMode = 'locked' | 'default';
export const SETTING_POLICY_MODES: readonly SettingPolicyMode[] = ['locked', 'default'];

export interface SettingPolicy<V> {
  mode: SettingPolicyMode;
  value: V;
}

export interface OrganisationRef {
  id: string;
  name: string;
}

/** One organisation of a chain, for one setting: its own value (if it chose one) and its policy for those below. */
export interface SettingLink<V> extends OrganisationRef {
  own?: V | null;
  policy?: SettingPolicy<V> | null;
}

/** Where an effective value comes from. @internal */
export type SettingOrigin = 'own' | 'locked' | 'default' | 'built-in';

export interface ResolvedSetting<V> {
  /** The value in force. */
  value: V;
  /** 'own': the organisation's choice; 'locked' / 'default': a policy of `setBy`; 'built-in': nobody chose. */
  from: SettingOrigin;
  /** The organisation above whose policy gives the value (locked or default); null otherwise. */
  setBy: OrganisationRef | null;
  /** The organisation's own value, kept while a lock is in force (it applies again when the lock is lifted); null if none. */
  own: V | null;
  /** The nearest default above: what the organisation follows once it drops its own value ('Use district default'). */
  inheritedDefault: { value: V; setBy: OrganisationRef } | null;
}

/**
 * The value of one setting for the first organisation of `chain` (then its parent, then its grandparent: nearest
 * first). The rule, in order:
 * 1. a lock above wins; of several locks, the highest organisation's (a region's lock binds its districts' policies);
 * 2. else the organisation's own value;
 * 3. else the nearest default above (a district's default wins over its region's);
 * 4. else the built-in value.
 * The first organisation's own policy is ignored: a policy applies only below the organisation that sets it.
 */
export function resolveSetting<V>(chain: ReadonlyArray<SettingLink<V>>, builtIn: V): ResolvedSetting<V> {
  const [self, ...above] = chain;
  const own = self?.own ?? null;
  let lock: { value: V; setBy: OrganisationRef } | null = null;
  let inheritedDefault: { value: V; setBy: OrganisationRef } | null = null;
  for (const link of above) {
    if (!link.policy) continue;
    const found = { value: link.policy.value, setBy: { id: link.id, name: link.name } };
    // Walking up: a later lock is a higher one, and wins; the first default met is the nearest.
    if (link.policy.mode === 'locked') lock = found;
    else inheritedDefault ??= found;
  }
  if (lock) return { value: lock.value, from: 'locked', setBy: lock.setBy, own, inheritedDefault };
  if (own !== null) return { value: own, from: 'own', setBy: null, own, inheritedDefault };
  if (inheritedDefault) return { value: inheritedDefault.value, from: 'default', setBy: inheritedDefault.setBy, own, inheritedDefault };
  return { value: builtIn, from: 'built-in', setBy: null, own, inheritedDefault };
}

/** What one organisation stores: its own values and its policies for the organisations below it. */
export interface OrganisationSettingsNode extends OrganisationRef {
  own: { apps: Readonly<Partial<Record<string, AppSettingValue>>>; imageSearch?: ImageSearchValue | null };
  policies: { apps: Readonly<Partial<Record<string, SettingPolicy<AppSettingValue>>>>; imageSearch?: SettingPolicy<ImageSearchValue> | null };
}

export interface ResolvedSettings {
  /** Effective app permissions in the stored shape of spec §3: 1 or -1, absent for teachers and students. */
  apps: Partial<Record<string, AppPermission>>;
  /** Effective image search: 'pixabay', or null for Google. */
  imageSearch: typeof IMAGE_SEARCH_PIXABAY | null;
  sources: { apps: Record<string, ResolvedSetting<AppSettingValue>>; imageSearch: ResolvedSetting<ImageSearchValue> };
}

/** A teacher-only app's 'Teachers and students' means 'Teachers only' (spec §6): its built-in value and any 0 become 1. */
function appValue(app: Pick<AppCatalogueEntry, 'teacherOnly'>, value: AppSettingValue): AppSettingValue {
  return app.teacherOnly && value === APP_PERMISSION_EVERYONE ? APP_PERMISSION_TEACHERS_ONLY : value;
}

/** Every setting of the first organisation of `chain` (nearest first), resolved with resolveSetting. */
export function resolveSettings(chain: ReadonlyArray<OrganisationSettingsNode>): ResolvedSettings {
  const apps: ResolvedSettings['apps'] = {};
  const appSources: ResolvedSettings['sources']['apps'] = {};
  for (const app of APP_CATALOGUE as readonly AppCatalogueEntry[]) {
    const resolved = resolveSetting<AppSettingValue>(
      chain.map((node) => ({ id: node.id, name: node.name, own: node.own.apps[app.id], policy: node.policies.apps[app.id] })),
      APP_PERMISSION_EVERYONE,
    );
    const value = appValue(app, resolved.value);
    appSources[app.id] = { ...resolved, value };
    // As stored today: a value chosen (here or above) shows; 'Teachers and students', and a teacher-only app left at its built-in value, are absent.
    if (resolved.value !== APP_PERMISSION_EVERYONE) apps[app.id] = resolved.value;
  }
  const imageSearch = resolveSetting<ImageSearchValue>(
    chain.map((node) => ({ id: node.id, name: node.name, own: node.own.imageSearch, policy: node.policies.imageSearch })),
    IMAGE_SEARCH_GOOGLE,
  );
  return { apps, imageSearch: imageSearch.value === IMAGE_SEARCH_PIXABAY ? IMAGE_SEARCH_PIXABAY : null, sources: { apps: appSources, imageSearch } };
}

/** The settings' keys as the audit trail and the lock refusal name them: 'apps.giphy', 'imageSearch'. */
export type SettingKey = `apps.${string}` | 'imageSearch';

/** Texts of settings set by an organisation above (designed, docs/settings.md "Districts"). */
export const settingPolicyMessages = {
  forSchools: 'For schools',
  letSchoolsDecide: 'Let schools decide',
  lockForSchools: 'Lock for schools',
  /** Under a value the district locked: the control is disabled. */
  locked: (name: string) => `Set by ${name}. Only district admins can change this.`,
  /** Under a district default the school follows. */
  followsDefault: (name: string) => `Set by ${name} as the district default. This school may choose its own.`,
  /** Under the school's own value, when its district has a default. */
  overridesDefault: (name: string, label: string) => `${name}'s default is ${label}. This school chose its own.`,
  useDistrictDefault: 'Use district default',
  /** The refusal of a change to a setting locked above (409 setting_locked_by_district). */
  refused: (name: string) => `This setting is locked by ${name}: only its admins can change it, in ${name}'s settings.`,
  policyFailed: (setting: string) => `The setting of ${setting} for schools could not be changed, please try again.`,
} as const;
