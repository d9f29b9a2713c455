import { z } from 'zod';
import { INPUT_LIMITS } from '../constants.js';
import { orgAccessLevelSchema } from './organisations.js';

/**
 * The spec's sign-in contracts under {auth}, {api} and {payments} (spec §7; docs/identity.md). Form bodies
 * arrive URL-encoded, so flags may be the strings 'true' / 'false'.
 */

const flag = z.union([z.boolean(), z.string()]).optional();
// Lengths no person reaches and a script does (INPUT_LIMITS, docs/security.md).
const emailField = z.string().max(INPUT_LIMITS.emailMax);
const passwordField = z.string().max(INPUT_LIMITS.passwordMax);

// ---- Requests ----

/** POST {auth}/email: sign in, or sign up with displayName and registrationAttempt. */
export const authEmailBodySchema = z.object({
  email: emailField,
  password: passwordField,
  isTeacher: flag,
  displayName: z.string().max(INPUT_LIMITS.displayNameMax).optional(),
  registrationAttempt: flag,
});

/** POST {auth}/allowed-as-teacher. */
export const allowedAsTeacherBodySchema = z.object({ email: emailField, userId: z.string().max(200).optional() });

/** POST {payments}/v1/admin/auth: e-mail and password, or nothing when a session cookie is sent. */
export const adminAuthBodySchema = z.object({ email: emailField, password: passwordField }).partial().nullish();

/** POST {api}/token: the ID token, and what the console says of the user. */
export const adminSessionBodySchema = z.object({
  token: z.string().max(8192).default(''),
  userProperties: z.object({ isTeacher: z.boolean().optional(), needsLibraryOnboarding: z.boolean().optional() }).optional(),
});

/** `{email}` in the {api} look-up paths. */
export const emailParamsSchema = z.object({ email: z.string().max(INPUT_LIMITS.emailMax) });

/** GET {api}/users/v2/{uid}/{chatSupportProvider}/identity-verification. */
export const identityVerificationParamsSchema = z.object({ uid: z.string(), chatSupportProvider: z.string() });

// ---- Answers ----

/** POST {auth}/email: a custom token for {identity} sign-in with it. */
export const customTokenSchema = z.object({ token: z.string(), emailVerified: z.boolean() });
export type CustomToken = z.infer<typeof customTokenSchema>;

/** POST {auth}/allowed-as-teacher: 200 when allowed (403 otherwise). */
export const allowedAsTeacherSchema = z.object({ allowed: z.literal(true) });

/** POST {api}/token: the admin session is open; the ID token's claims, bc_orgs included. */
export const adminSessionSchema = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  emailVerified: z.boolean(),
  /** Organisation id → access level. */
  bc_orgs: z.record(z.string(), orgAccessLevelSchema),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/**
 * GET {api}/users/v2/providers/{email}: the sign-in methods the account has, in the spec's names
 * ('password', 'google.com', 'office365'); empty when there is no account.
 */
export const providerNamesSchema = z.array(z.string());

/** POST {api}/resend-email/{email}: the same answer whether or not a mail went out. */
export const resendEmailSchema = z.object({ sent: z.literal(true) });
