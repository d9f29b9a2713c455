import { z } from 'zod';
import { APP_IDS } from '../app-catalogue.js';
import { APP_PERMISSION_DISABLED, APP_PERMISSION_TEACHERS_ONLY, IMAGE_SEARCH_PIXABAY } from '../constants.js';

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
 * A partial update, merged into what is stored: `{ apps: { giphy: -1 } }` changes one app and
 * leaves the others; null resets an app to 'Teachers and students' (a teacher-only app to 'Teachers only').
 * `{ imageSearch: 'pixabay' }` or `{ imageSearch: null }` changes image search. At least one change.
 */
export const settingsUpdateSchema = z
  .strictObject({
    apps: z.partialRecord(appIdSchema, appPermissionSchema.nullable()).optional(),
    imageSearch: imageSearchSchema.optional(),
  })
  .refine((v) => (v.apps && Object.keys(v.apps).length > 0) || v.imageSearch !== undefined, 'Send at least one setting to change');
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const settingsParamsSchema = z.object({ orgId: z.string().min(1).max(200) });

export const settingsQuerySchema = z.object({
  /** The acting user's id (spec §7 passes it); when given it must be the signed-in user. */
  userId: z.string().min(1).max(200).optional(),
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
