import { APP_PERMISSION_DISABLED, APP_PERMISSION_TEACHERS_ONLY, type AppPermission } from './constants.js';

/**
 * The third-party app catalogue of spec §3, once for the console (Manage Apps) and the server
 * (which apps a user may use). Where the spec gives only counts of 'good to know' and 'be aware'
 * points, the points are ours: what the third party receives, its age limits and consent
 * (docs/settings.md).
 */

/** Whose terms apply: a third party's, or the product's own (the app runs inside the product). */
type AppProvider = 'third-party' | 'product';

export interface AppCatalogueEntry {
  id: string;
  name: string;
  premium: boolean;
  /** Never available to students (spec §6: bitmoji). */
  teacherOnly: boolean;
  isNew: boolean;
  provider: AppProvider;
  /** The company whose terms apply, where the app's name is not it ('Adobe' for the AI Image Generator). */
  providerName?: string;
  /** Third-party terms; null for the product's own (the console links the product's terms). */
  termsURL: string | null;
  privacyPolicyURL: string | null;
  /** Age limits and consent (spec §3 "Age notes"). */
  ageNote: string;
  /** Texts of the privacy details; '{product}' stands for the product's name (`withProductName`). */
  strings: {
    summary: string;
    detail: string;
    goodToKnow: readonly string[];
    beAware: readonly string[];
  };
}

/** A catalogue text with the product's name in place of '{product}'. */
export function withProductName(text: string, productName: string): string {
  return text.replaceAll('{product}', productName);
}

/** Whose terms and privacy policy an app's links are: its provider's name, else the app's own. */
export function appProviderName(app: Pick<AppCatalogueEntry, 'name' | 'providerName'>): string {
  return app.providerName ?? app.name;
}

const GOOGLE_TERMS = 'https://policies.google.com/terms';
const GOOGLE_PRIVACY = 'https://policies.google.com/privacy';
const NO_AGE_LIMIT = 'No age limit.';

/**
 * One of the product's own premium apps: it runs inside the product, so the product's terms apply, it has no
 * age limit, and no personal data leaves the product.
 */
function productApp<const Id extends string>(app: { id: Id; name: string; summary: string; detail: string; goodToKnow: readonly string[]; beAware: readonly string[] }) {
  const { id, name, summary, detail, goodToKnow, beAware } = app;
  return {
    id, name, premium: true, teacherOnly: false, isNew: false, provider: 'product', termsURL: null, privacyPolicyURL: null, ageNote: NO_AGE_LIMIT,
    strings: { summary, detail, goodToKnow, beAware },
  } as const satisfies AppCatalogueEntry;
}

export const APP_CATALOGUE = [
  {
    id: 'adobe',
    name: 'AI Image Generator',
    providerName: 'Adobe',
    premium: false,
    teacherOnly: false,
    isNew: true,
    provider: 'third-party',
    termsURL: 'https://www.adobe.com/legal/terms.html',
    privacyPolicyURL: 'https://www.adobe.com/privacy/policy.html',
    ageNote: 'No age limit; under 13s need parent, guardian or teacher consent.',
    strings: {
      summary: 'Create images from a written description, powered by Adobe Firefly. Available to free and premium users.',
      detail:
        'The text prompt a user types is sent to Adobe to generate images; the chosen image is added to the book. No name, e-mail address or account details are sent.',
      goodToKnow: [
        'Adobe receives only the text prompt, never the user’s name or e-mail address.',
        'Adobe filters prompts and results for unsafe content.',
        'Available to free and premium users.',
      ],
      beAware: [
        'Under 13s need parent, guardian or teacher consent before they use it.',
        'Generated images can be inaccurate; review them with students.',
      ],
    },
  },
  productApp({
    id: 'animatedemojis',
    name: 'Animated Emojis',
    summary: 'Add animated emojis to pages.',
    detail: 'The emoji library is served by {product} itself; nothing about the user is shared with a third party.',
    goodToKnow: ['No personal data leaves {product}.', 'No age limit.'],
    beAware: ['A premium feature: users without a premium licence see it locked.'],
  }),
  {
    id: 'bitmoji',
    name: 'Bitmoji',
    premium: false,
    teacherOnly: true,
    isNew: false,
    provider: 'third-party',
    termsURL: 'https://snap.com/en-US/terms',
    privacyPolicyURL: 'https://values.snap.com/privacy/privacy-policy',
    ageNote: 'No under 13s.',
    strings: {
      summary: 'Teachers add their personal Bitmoji avatar stickers to books.',
      detail:
        'The teacher signs in to Bitmoji (Snap Inc.) in a pop-up window; Snap receives that sign-in and returns the teacher’s stickers. {product} does not send Snap any student data.',
      goodToKnow: ['Teachers only: students can never use it, whatever the setting.', 'The teacher signs in with their own Bitmoji account.'],
      beAware: ['Snap’s terms do not allow users under 13.', 'Snap collects data under its own privacy policy when the teacher signs in.'],
    },
  },
  {
    id: 'canva',
    name: 'Canva',
    premium: false,
    teacherOnly: false,
    isNew: false,
    provider: 'third-party',
    termsURL: 'https://www.canva.com/policies/terms-of-use/',
    privacyPolicyURL: 'https://www.canva.com/policies/privacy-policy/',
    ageNote: 'Under 13s only with parent or guardian consent.',
    strings: {
      summary: 'Design graphics in Canva and add them to books.',
      detail:
        'The user works in Canva (Canva Pty Ltd) in a pop-up window, signed in with a Canva account; the finished design is imported into the book. {product} sends Canva no personal data.',
      goodToKnow: ['Users sign in with their own Canva (or Canva for Education) account.', 'Only the finished design comes back into the book.'],
      beAware: [
        'Under 13s may use Canva only with parent or guardian consent.',
        'Canva collects account data under its own privacy policy.',
      ],
    },
  },
  {
    id: 'giphy',
    name: 'GIPHY',
    premium: false,
    teacherOnly: false,
    isNew: false,
    provider: 'third-party',
    termsURL: 'https://support.giphy.com/hc/en-us/articles/360020027752-GIPHY-Terms-of-Service',
    privacyPolicyURL: 'https://support.giphy.com/hc/en-us/articles/360032872931-GIPHY-Privacy-Policy',
    ageNote: 'No under 13s, and no under 16s in the EU, UK, Liechtenstein, Norway or Iceland.',
    strings: {
      summary: 'Search GIPHY for animated GIFs and stickers.',
      detail: 'Search words are sent to GIPHY, which returns GIFs rated for general audiences. No name or e-mail address is sent.',
      goodToKnow: ['Searches are limited to GIFs rated G.', 'GIPHY receives the search words and the user’s IP address, not their name.'],
      beAware: [
        'GIPHY’s terms do not allow users under 13, or under 16 in the EU, UK, Liechtenstein, Norway or Iceland.',
        'Ratings are set by GIPHY and can miss unsuitable content.',
      ],
    },
  },
  {
    id: 'googledrive',
    name: 'Google Drive',
    premium: false,
    teacherOnly: false,
    isNew: false,
    provider: 'third-party',
    termsURL: GOOGLE_TERMS,
    privacyPolicyURL: GOOGLE_PRIVACY,
    ageNote: NO_AGE_LIMIT,
    strings: {
      summary: 'Import images, audio and video from Google Drive.',
      detail:
        'The user signs in to Google and picks files; only the files picked are copied into the book. {product} asks Google for read access to the files chosen, nothing else.',
      goodToKnow: ['Works with Google Workspace for Education accounts.', 'Only files the user picks are read.'],
      beAware: ['Google processes the sign-in under its own privacy policy.'],
    },
  },
  {
    id: 'googlemaps',
    name: 'Google Maps',
    premium: true,
    teacherOnly: false,
    isNew: false,
    provider: 'third-party',
    termsURL: 'https://maps.google.com/help/terms_maps/',
    privacyPolicyURL: GOOGLE_PRIVACY,
    ageNote: NO_AGE_LIMIT,
    strings: {
      summary: 'Add interactive maps to pages.',
      detail: 'Map searches and the map shown are loaded from Google; no name or e-mail address is sent.',
      goodToKnow: ['No Google account is needed.', 'No age limit.'],
      beAware: ['Google receives the searches and the reader’s IP address when a map loads.', 'A premium feature.'],
    },
  },
  {
    id: 'sketchfab',
    name: '3D Models',
    providerName: 'Sketchfab',
    premium: true,
    teacherOnly: false,
    isNew: false,
    provider: 'third-party',
    termsURL: 'https://sketchfab.com/terms',
    privacyPolicyURL: 'https://sketchfab.com/privacy',
    ageNote: 'No under 16s; under 18s only with consent.',
    strings: {
      summary: 'Embed 3D models from Sketchfab.',
      detail: 'Searches go to Sketchfab and the chosen model is embedded from Sketchfab when the page is read. No name or e-mail address is sent.',
      goodToKnow: ['Only downloadable, openly licensed models are offered.', 'No Sketchfab account is needed.'],
      beAware: [
        'Sketchfab’s terms do not allow users under 16; under 18s need parent or guardian consent.',
        'Sketchfab receives the reader’s IP address when a model loads.',
      ],
    },
  },
  productApp({
    id: 'teacherstickers',
    name: 'Teacher Stickers',
    summary: 'Stickers for feedback and rewards.',
    detail: 'The sticker library is served by {product} itself; nothing about the user is shared with a third party.',
    goodToKnow: ['No personal data leaves {product}.'],
    beAware: ['A premium feature.'],
  }),
  productApp({
    id: 'graphicorganizers',
    name: 'Graphic Organizers',
    summary: 'Over 100 graphic organizer templates.',
    detail: 'Over 100 templates (mind maps, timelines, Venn diagrams and more) served by {product} itself; nothing is shared with a third party.',
    goodToKnow: ['Over 100 templates.', 'No personal data leaves {product}.'],
    beAware: ['A premium feature.'],
  }),
] as const satisfies readonly AppCatalogueEntry[];

export type AppId = (typeof APP_CATALOGUE)[number]['id'];

export const APP_IDS = APP_CATALOGUE.map((a) => a.id) as [AppId, ...AppId[]];

export function findApp(id: string): AppCatalogueEntry | undefined {
  return (APP_CATALOGUE as readonly AppCatalogueEntry[]).find((a) => a.id === id);
}

/** Labels of the permission control (spec §4, §9), and of a permission in the audit log. */
export const APP_PERMISSION_LABELS = {
  teachersAndStudents: 'Teachers and students',
  teachersOnly: 'Teachers only',
  disabled: 'Disabled for everyone',
} as const;

/** The permission choices an app offers: teacher-only apps offer only 'Teachers only' and 'Disabled for everyone'. */
export function appPermissionChoices(app: Pick<AppCatalogueEntry, 'teacherOnly'>): Array<{ value: AppPermission | null; label: string }> {
  const restricted = [
    { value: APP_PERMISSION_TEACHERS_ONLY, label: APP_PERMISSION_LABELS.teachersOnly },
    { value: APP_PERMISSION_DISABLED, label: APP_PERMISSION_LABELS.disabled },
  ] as Array<{ value: AppPermission | null; label: string }>;
  return app.teacherOnly ? restricted : [{ value: null, label: APP_PERMISSION_LABELS.teachersAndStudents }, ...restricted];
}

/** The permission an app effectively has: a teacher-only app left unset is 'Teachers only'. */
export function effectiveAppPermission(app: Pick<AppCatalogueEntry, 'teacherOnly'>, stored: AppPermission | null | undefined): AppPermission | null {
  if (stored === APP_PERMISSION_DISABLED || stored === APP_PERMISSION_TEACHERS_ONLY) return stored;
  return app.teacherOnly ? APP_PERMISSION_TEACHERS_ONLY : null;
}

export type AppUserKind = 'teacher' | 'student';

/** Whether a teacher or student may use an app under the organisation's setting (spec §4, §6). @internal */
export function isAppAllowed(app: Pick<AppCatalogueEntry, 'teacherOnly'>, stored: AppPermission | null | undefined, kind: AppUserKind): boolean {
  const permission = effectiveAppPermission(app, stored);
  if (permission === APP_PERMISSION_DISABLED) return false;
  if (permission === APP_PERMISSION_TEACHERS_ONLY) return kind === 'teacher';
  return true;
}

/** The catalogue's apps a teacher or student may use, in catalogue order. */
export function allowedApps(apps: Readonly<Record<string, AppPermission | null | undefined>>, kind: AppUserKind): AppCatalogueEntry[] {
  return (APP_CATALOGUE as readonly AppCatalogueEntry[]).filter((app) => isAppAllowed(app, apps[app.id], kind));
}

/** Texts of Manage Apps that the spec does not give (designed, docs/settings.md). */
export const appsMessages = {
  updateFailed: (appName: string) => `The permission for ${appName} could not be changed, please try again.`,
} as const;
