import { z } from 'zod';
import { APP_IDS, findApp } from '../app-catalogue.js';
import { APP_PERMISSION_DISABLED, APP_PERMISSION_TEACHERS_ONLY, IMAGE_SEARCH_PIXABAY } from '../constants.js';
import { APP_PERMISSION_EVERYONE, IMAGE_SEARCH_GOOGLE, SETTING_POLICY_MODES } from '../setting-policies.js';

/**
 * Organisation settings (spec §3, §7 "Settings"): the read and update calls, the updateSettings
 * mutation and the "which apps may this user use" answer (docs/settings.md).
 */

/** A known app id of the catalogue; anything else is refused. */
const appIdSchema = z.enum(APP_IDS);

/** A stored permission: 1 teachers only, -1 disabled for everyone (unset = teachers and students). */
const appPermissionSchema = z.union([z.literal(APP_PERMISSION_TEACHERS_ONLY), z.literal(APP_PERMISSION_DISABLED)]);

/** 'pixabay' (moderated safe images only) or null (Google image search allowed). */
const imageSearchSchema = z.literal(IMAGE_SEARCH_PIXABAY).nullable();

/** The organisation's settings as read. */
export const organisationSettingsSchema = z.object({
  /** App id → 1 or -1; apps left at 'Teachers and students' are absent. */
  apps: z.partialRecord(appIdSchema, appPermissionSchema),
  imageSearch: imageSearchSchema,
});
export type OrganisationSettingsPayload = z.infer<typeof organisationSettingsSchema>;

/**
 * An app's value as an organisation chooses it or a district applies it: 1 teachers only, -1 disabled for everyone,
 * 0 'Teachers and students' chosen on purpose (a school's own choice against a district default; the built-in value).
 */
/** @internal */
export const appSettingValueSchema = z.union([z.literal(APP_PERMISSION_EVERYONE), appPermissionSchema]);

/** Image search as chosen: 'pixabay' (moderated safe images only) or 'google' (chosen on purpose; the built-in value). @internal */
export const imageSearchValueSchema = z.enum([IMAGE_SEARCH_GOOGLE, IMAGE_SEARCH_PIXABAY]);

/** A teacher-only app offers only 'Teachers only' and 'Disabled for everyone' (spec §4): 0 is refused for it. */
function refuseEveryoneForTeacherOnly(apps: Partial<Record<string, unknown>> | undefined, ctx: z.RefinementCtx) {
  for (const [id, value] of Object.entries(apps ?? {})) {
    const app = findApp(id);
    const chosen = value !== null && typeof value === 'object' ? (value as { value?: unknown }).value : value;
    if (app?.teacherOnly && chosen === APP_PERMISSION_EVERYONE) {
      ctx.addIssue({ code: 'custom', path: ['apps', id], message: `${app.name} is for teachers only: choose Teachers only or Disabled for everyone` });
    }
  }
}

/**
 * A partial update, merged into what is stored: `{ apps: { giphy: -1 } }` changes one app and
 * leaves the others; null drops the organisation's own value, so it follows its district's default, or has the
 * built-in value ('Teachers and students'; a teacher-only app 'Teachers only'); 0 chooses 'Teachers and students'
 * on purpose. `{ imageSearch: 'pixabay' }`, `'google'` or `null` changes image search. At least one change.
 */
export const settingsUpdateSchema = z
  .strictObject({
    apps: z.partialRecord(appIdSchema, appSettingValueSchema.nullable()).optional(),
    imageSearch: imageSearchValueSchema.nullable().optional(),
  })
  .refine((v) => (v.apps && Object.keys(v.apps).length > 0) || v.imageSearch !== undefined, 'Send at least one setting to change')
  .superRefine((v, ctx) => refuseEveryoneForTeacherOnly(v.apps, ctx));
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** 'locked': the organisations below cannot change the setting; 'default': they follow it until they choose their own. @internal */
export const settingPolicyModeSchema = z.enum(SETTING_POLICY_MODES);

const appPolicySchema = z.strictObject({ mode: settingPolicyModeSchema, value: appSettingValueSchema });
const imageSearchPolicySchema = z.strictObject({ mode: settingPolicyModeSchema, value: imageSearchValueSchema });

/** An organisation's policies for the organisations below it; an absent app (imageSearch null) is 'Let schools decide'. @internal */
export const settingPoliciesSchema = z.object({
  apps: z.partialRecord(appIdSchema, appPolicySchema),
  imageSearch: imageSearchPolicySchema.nullable(),
});
export type SettingPolicies = z.infer<typeof settingPoliciesSchema>;

/**
 * A partial change of policies, merged like settings: `{ apps: { giphy: { mode: 'locked', value: -1 } } }` applies a
 * value to every organisation below; null returns a setting to 'Let schools decide'. At least one change.
 */
export const settingPoliciesUpdateSchema = z
  .strictObject({
    apps: z.partialRecord(appIdSchema, appPolicySchema.nullable()).optional(),
    imageSearch: imageSearchPolicySchema.nullable().optional(),
  })
  .refine((v) => (v.apps && Object.keys(v.apps).length > 0) || v.imageSearch !== undefined, 'Send at least one setting to change')
  .superRefine((v, ctx) => refuseEveryoneForTeacherOnly(v.apps, ctx));
export type SettingPoliciesUpdate = z.infer<typeof settingPoliciesUpdateSchema>;

/** An organisation named in an answer. @internal */
export const organisationRefSchema = z.object({ id: z.string(), name: z.string() });

function settingSourceSchema<V extends z.ZodType>(value: V) {
  return z.object({
    /** The value in force (a teacher-only app's 'Teachers and students' shows as 1). */
    value,
    /** 'own': the organisation's choice; 'locked' / 'default': a policy of setBy; 'built-in': nobody chose. */
    from: z.enum(['own', 'locked', 'default', 'built-in']),
    /** The organisation above whose policy gives the value; null when from is 'own' or 'built-in'. */
    setBy: organisationRefSchema.nullable(),
    /** The organisation's own value: kept while a lock is in force, in force again when it is lifted. */
    own: value.nullable(),
    /** The nearest default above: what the organisation follows without its own value ('Use district default'). */
    inheritedDefault: z.object({ value, setBy: organisationRefSchema }).nullable(),
  });
}
/** @internal */
export const appSettingSourceSchema = settingSourceSchema(appSettingValueSchema);
/** @internal */
export const imageSearchSettingSourceSchema = settingSourceSchema(imageSearchValueSchema);
export type AppSettingSource = z.infer<typeof appSettingSourceSchema>;
export type ImageSearchSettingSource = z.infer<typeof imageSearchSettingSourceSchema>;

/**
 * GET …/settings?include=sources (and PATCH …/setting-policies): the settings in force and where each comes from, the
 * organisation's own policies for those below it, and whether it has any (docs/settings.md "Districts").
 */
export const effectiveSettingsSchema = organisationSettingsSchema.extend({
  organisationId: z.string(),
  /** Per setting: the organisation itself, an organisation above (locked or default), or the built-in value. */
  sources: z.object({ apps: z.record(appIdSchema, appSettingSourceSchema), imageSearch: imageSearchSettingSourceSchema }),
  policies: settingPoliciesSchema,
  /** True when organisations sit under this one: only then may it set policies. */
  hasOrganisationsBelow: z.boolean(),
});
export type EffectiveSettings = z.infer<typeof effectiveSettingsSchema>;

export const settingsParamsSchema = z.object({ orgId: z.string().min(1).max(200) });

export const settingsQuerySchema = z.object({
  /** The acting user's id (spec §7 passes it); when given it must be the signed-in user. */
  userId: z.string().min(1).max(200).optional(),
  /** 'sources': the read answers where each setting comes from too (effectiveSettingsSchema). */
  include: z.literal('sources').optional(),
});

/** Which search engine the product's image search uses for this organisation. */
const effectiveImageSearchSchema = z.enum(['google', 'pixabay']);

/** GET …/users/{userId}/apps: what one user of the organisation may use. */
export const userAppsSchema = z.object({
  userId: z.string(),
  organisationId: z.string(),
  /** Students never get teacher-only apps or apps set to 'Teachers only'. */
  kind: z.enum(['teacher', 'student']),
  apps: z.array(z.object({ id: appIdSchema, name: z.string(), premium: z.boolean() })),
  imageSearch: effectiveImageSearchSchema,
});
export type UserApps = z.infer<typeof userAppsSchema>;

export const userAppsParamsSchema = z.object({ orgId: z.string().min(1).max(200), userId: z.string().min(1).max(200) });

/** GET …/settings: the settings in force, with their sources when asked for (`include=sources`). */
export const settingsReadSchema = z.union([effectiveSettingsSchema, organisationSettingsSchema]);
export type SettingsRead = z.infer<typeof settingsReadSchema>;
