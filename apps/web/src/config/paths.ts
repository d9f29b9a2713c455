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
    /** The second step of 2-step verification, after the password or a provider's sign-in. */
    twoStep: () => '/sign-in/two-step',
  },

  /** The signed-in person's own pages, outside any organisation (reached from the user menu). */
  account: {
    /** 2-step verification: set up, recovery codes, turn off; also where an admin who must enrol is sent. */
    security: () => '/account/security',
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
    rostering: (orgId: string) => `/${segment(orgId)}/rostering`,
    apps: (orgId: string) => `/${segment(orgId)}/apps`,
    imageSearch: (orgId: string) => `/${segment(orgId)}/image-search`,
    audit: (orgId: string) => `/${segment(orgId)}/audit`,
    security: (orgId: string) => `/${segment(orgId)}/security`,
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
    twoStep: '/sign-in/two-step',
  },
  account: {
    security: '/account/security',
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
    rostering: 'rostering',
    apps: 'apps',
    imageSearch: 'image-search',
    audit: 'audit',
    security: 'security',
  },
} as const;
