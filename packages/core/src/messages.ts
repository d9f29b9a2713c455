/**
 * The user-facing texts of the spec's error catalogue (§8) and validation rules (§5), word for word.
 * Both the console and the server use these; never retype one of them elsewhere.
 * Where the spec says a text exists but does not give it ("has its own message"), the text here is ours
 * and is marked "designed" (see docs/decisions.md).
 */

/** Sign-in, registration and session texts. */
export const authMessages = {
  invalidCredentials: 'Invalid email or password',
  organisationLookupFailed: 'Something went wrong logging you in, please try again.',
  noOrganisations: 'You do not have an account on this site',
  googleAccessRequired: 'You need to allow the product access to your Google account to sign in with Google.',
  resendFailed: 'Something went wrong resending the email. Please try again.',
  signUpAsAdminRefused: "You can't sign up as admin with this email address",
  districtSso: 'Please sign in using your district SSO such as Clever or Schoology',
  cityGovernment:
    'Your district prevents the use of email and password logins to the admin console, please use the preferred Single Sign On methods.',
  /** Designed: the spec only says registration with an existing e-mail shows a Sign in button. */
  emailAlreadyInUse: 'An account already exists with this email address.',
  /**
   * Designed: a single-use sign-in token (a library visit's or an LTI launch's link) that has expired or
   * was already used.
   */
  signInLinkUsed: 'This sign-in link has expired or was already used. Please open it again from where you started.',
} as const;

/** Office 365 popup sign-in. */
export const office365Messages = {
  alreadyRegistered: 'You already have account, please use that to sign in',
  registeredWithGoogle: 'You are already registered with a Google account, please use that to sign in',
  registeredWithEmail: 'You are already registered with an email account, please use that to sign in',
  failed: 'Something went wrong logging you in',
  accessDenied: 'You need to allow access to your account to continue.',
} as const;

/** Firebase-style identity error codes and their texts (§8). */
export const authErrorCodeMessages = {
  'auth/wrong-password': 'Incorrect password.',
  'auth/user-not-found': "That email address doesn't match an existing account.",
  'auth/invalid-email': 'Invalid email address.',
  'auth/user-disabled': 'This account has been disabled.',
  'auth/too-many-requests': 'You have entered an incorrect password too many times. Please try again in a few minutes.',
} as const;

/** Any identity error code the catalogue does not name. */
export const UNKNOWN_AUTH_ERROR = 'There was a problem signing in, please try again.';

/** Validation texts of §5. */
export const validationMessages = {
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Please enter a password',
  passwordTooShort: 'Password must be at least 6 characters',
  nameRequired: 'Please enter your name',
  organisationNameEmpty: 'Organisation name cannot be empty',
  /** Designed: the spec gives the 128 limit but no text. */
  organisationNameTooLong: 'Organisation name must be at most 128 characters',
  subjectRequired: 'Please include a subject',
  messageRequired: 'Please include a message',
  /** Designed: the spec says a visit reason is required but gives no text. */
  visitReasonRequired: 'Please choose a reason for your visit',
  /** Designed: the spec gives the 65 limit but no text. */
  visitReasonTooLong: 'The reason must be at most 65 characters',
} as const;

/** Teacher import (§8). */
export const importMessages = {
  forbidden: 'Your account cannot perform this action',
  licensesNotGranted: "The teachers couldn't be granted licenses",
  failed: "Something went wrong, the teachers couldn't be imported",
} as const;

/** Teacher management (§8). */
export const teacherMessages = {
  deleteFailed: 'Error deleting teacher',
  roleFailed: 'Error setting user role',
  welcomeEmailFailed: 'Error sending welcome email',
  /** Designed: the spec's catalogue names only the welcome e-mail's failure; a certification request has its own. */
  certificationRequestFailed: 'Error sending certification request',
  studentAccountsNotEmailed: "Some users selected have student accounts and weren't emailed",
  notFound: 'No teachers found',
  noTeachers: "You don't have any teachers in your organisation",
} as const;

/**
 * Designed: an action on 'all n teachers' matching the filters, refused because the list changed
 * between the count shown and Apply. Nothing was changed.
 */
export function selectionChangedMessage(expected: number, matching: number): string {
  const now = matching === 1 ? '1 teacher matches' : `${matching} teachers match`;
  return `The teachers matching your filters have changed: ${now} now, not ${expected}. Nothing was changed: check the list and try again.`;
}

/** Teacher libraries: viewing, transferring, archiving, visiting (§8, §6). */
export const libraryMessages = {
  fetchFailed: 'Error fetching teacher libraries',
  notAuthorisedRequestedUser: 'Not authorised to access the requested user',
  reassignFailed: 'Error reassigning teacher libraries',
  notAuthorisedUser: 'Not authorised to access the user',
  archiveFailed: 'Error archiving teacher libraries',
  revokeMembershipsFailed: 'Error revoking teacher memberships',
  joinFailed: 'Error joining teacher libraries',
  joinForbidden: "You don't have permissions to visit this library.",
  bookCountFailed: 'Error fetching teacher book count',
  visitNotAllowed: 'For security reasons, you do not have access to visit teacher libraries.',
  noLibraries: 'No libraries found',
  privateLibrary: 'Private',
  transferInProgress: 'Transfer in progress',
  deleteConfirmation: 'I understand deleted accounts are not recoverable',
} as const;

/** Organisation and licence dashboard (§2, §8). */
export const organisationMessages = {
  renameFailed: 'Something went wrong updating the organisation name',
  licensesLoadFailed: 'Something went wrong loading the licenses',
  noLicenses: "You don't have any licenses available",
} as const;

/** Admin management (§8). */
export const adminMessages = {
  loadFailed: 'There was a problem loading admins',
  importFailed: "Something went wrong, the admins couldn't be imported",
  removeFailed: "Something went wrong, the admins couldn't be removed",
  addFailed: 'error adding admin to org',
} as const;

/** LMS (LTI) credentials (§8). */
export const lmsMessages = {
  loadFailed: 'There was a problem getting the credentials',
  /** Designed: "generating and revoking failures have their own messages". */
  generateFailed: 'There was a problem generating the credentials',
  /** Designed, as above. */
  revokeFailed: 'There was a problem revoking the credentials',
  notGenerated: 'Not generated',
} as const;

/** Student portfolio export (§8). */
export const portfolioMessages = {
  notEnabled: 'Portfolios are not enabled for this organisation',
  noExportYet: 'No export yet generated',
  notReady: 'Portfolio data will be ready soon',
  /** The note beside notReady; the spec gives its content, this is its wording. */
  notReadyNote: 'It can take up to 24hrs from portfolios first being enabled.',
} as const;

/** Analytics (§2, §8). */
export const analyticsMessages = {
  customFailed: 'Error fetching custom analytics',
  dbFailed: 'Error fetching DB analytics',
  tileFailed: 'Loading error, please try again.',
  noData: 'There is no data available for this view',
} as const;

/** Settings: apps and image search (§8). */
export const settingsMessages = {
  loadFailed: 'Settings could not be loaded, please refresh and try again.',
  imageSearchFailed: 'failed to update image search setting, please refresh and try again',
} as const;

/** Browser support (§2, §8). */
export const browserMessages = {
  unsupportedTitle: "Your browser isn't supported",
  unsupported: "Your browser isn't supported.",
} as const;

/**
 * The text for an identity error code. `auth/internal-error` shows the provider's own message;
 * an unknown code (or a missing provider message) shows the generic sign-in text.
 */
export function authErrorMessage(code: string | null | undefined, providerMessage?: string): string {
  if (code === 'auth/internal-error') return providerMessage?.trim() || UNKNOWN_AUTH_ERROR;
  if (code === 'auth/email-already-in-use') return authMessages.emailAlreadyInUse;
  if (code && Object.hasOwn(authErrorCodeMessages, code)) {
    return authErrorCodeMessages[code as keyof typeof authErrorCodeMessages];
  }
  return UNKNOWN_AUTH_ERROR;
}

/** The Office 365 401 text for the providers the e-mail is already registered with. */
export function office365ConflictMessage(providerIds: readonly string[] = []): string {
  const ids = providerIds.map((p) => p.toLowerCase());
  if (ids.some((p) => p.includes('google'))) return office365Messages.registeredWithGoogle;
  if (ids.includes('password')) return office365Messages.registeredWithEmail;
  return office365Messages.alreadyRegistered;
}

/** Generic fallback when a GraphQL operation fails without errors of its own. */
export function genericOperationError(operationName: string): string {
  return `Something went wrong with the operation ${operationName}`;
}

/** GraphQL errors shown as one banner: their messages joined with newlines. */
function joinGraphqlErrors(errors: ReadonlyArray<{ message: string }> | null | undefined): string {
  return (errors ?? []).map((e) => e.message).join('\n');
}

/** A GraphQL failure's banner text: its errors when there are any, else the generic text for the operation. */
export function graphqlErrorMessage(
  operationName: string,
  errors: ReadonlyArray<{ message: string }> | null | undefined,
): string {
  const joined = joinGraphqlErrors(errors);
  return joined || genericOperationError(operationName);
}

/** "Error deleting teacher (server messages appended)": the base text, then any server messages. */
export function withServerMessages(base: string, serverMessages: ReadonlyArray<string | null | undefined> = []): string {
  const extra = serverMessages.map((m) => m?.trim()).filter((m): m is string => Boolean(m));
  return extra.length ? `${base}: ${extra.join('\n')}` : base;
}

/** Provider staff cannot be admins (§5); the spec gives the meaning, with the product's name. */
export function providerStaffAdminMessage(productName: string): string {
  return `${productName} users can't be added as admins`;
}

/**
 * The Google pop-up refusal of §8 with the product named: the spec's "the product" stands for
 * the product's name, as '{product}' does elsewhere.
 */
export function googleAccessRequiredMessage(productName: string): string {
  return authMessages.googleAccessRequired.replace('the product', productName);
}

/** The ambassador star's tooltip (§2). */
export function ambassadorTooltip(productName: string): string {
  return `${productName} Ambassador`;
}

/**
 * A limit reached on a form without a password (look-up, recovery, resend): the spec's password text
 * ('You have entered an incorrect password too many times…') would be wrong there (docs/security.md).
 */
export const rateLimitMessages = {
  tooManyRequests: 'Too many requests from this address. Please try again in a few minutes.',
} as const;
