/**
 * Every console route of spec §2 in one place. Builders return the path to link or navigate to;
 * `routePatterns` are what the router matches.
 */

const segment = (value: string) => encodeURIComponent(value);
const withOptionalEmail = (base: string, email?: string | null) => (email ? `${base}/${segment(email)}` : base);

export const paths = {
  root: '/',
  unsupported: '/unsupported',

  /** The sign-in area (spec §2, all under /sign-in). */
  signIn: {
    root: () => '/sign-in',
    office365: () => '/sign-in/office-365',
    email: (email?: string | null) => withOptionalEmail('/sign-in/email', email),
    register: (email?: string | null) => withOptionalEmail('/sign-in/register', email),
    verifyEmail: () => '/sign-in/verify-email',
    forgottenPassword: (email?: string | null) => withOptionalEmail('/sign-in/forgotten-password', email),
    organisation: () => '/sign-in/organisation',
  },

  /** Authenticated screens, prefixed with the organisation id. */
  org: {
    home: (orgId: string) => `/${segment(orgId)}`,
    teachers: (orgId: string) => `/${segment(orgId)}/teachers`,
    analytics: (orgId: string) => `/${segment(orgId)}/analytics`,
    portfolios: (orgId: string) => `/${segment(orgId)}/portfolios`,
    resources: (orgId: string) => `/${segment(orgId)}/resources`,
    admin: (orgId: string) => `/${segment(orgId)}/admin`,
    lms: (orgId: string) => `/${segment(orgId)}/lms`,
    provisioning: (orgId: string) => `/${segment(orgId)}/provisioning`,
    apps: (orgId: string) => `/${segment(orgId)}/apps`,
    imageSearch: (orgId: string) => `/${segment(orgId)}/image-search`,
    audit: (orgId: string) => `/${segment(orgId)}/audit`,
  },
} as const;

/** Router patterns; the org screens are relative to `org`. */
export const routePatterns = {
  unsupported: '/unsupported',
  signIn: {
    root: '/sign-in',
    office365: '/sign-in/office-365',
    email: '/sign-in/email/:email?',
    register: '/sign-in/register/:email?',
    verifyEmail: '/sign-in/verify-email',
    forgottenPassword: '/sign-in/forgotten-password/:email?',
    organisation: '/sign-in/organisation',
  },
  org: ':orgId',
  orgScreens: {
    teachers: 'teachers',
    analytics: 'analytics',
    portfolios: 'portfolios',
    resources: 'resources',
    admin: 'admin',
    lms: 'lms',
    provisioning: 'provisioning',
    apps: 'apps',
    imageSearch: 'image-search',
    audit: 'audit',
  },
} as const;
