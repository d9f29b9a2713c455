import { z } from 'zod';

/**
 * The identity provider under {identity} (docs/identity.md): the answers the console reads. The provider
 * (Better Auth) sends more fields than these, which the contracts let through (loose objects): its answers
 * are its own, the console reads only these fields. The session's answer is in identity-session.ts.
 */

/** GET {identity}/token: a fresh ID token carrying bc_orgs. */
export const idTokenSchema = z.looseObject({ token: z.string() });

/** POST {identity}/sign-in/social: the provider's authorisation URL for the pop-up. */
export const oauthStartSchema = z.looseObject({ url: z.string() });

/** GET {identity}/users/{uid}: the SDK's user record (the signed-in user's own only). */
export const identityUserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  emailVerified: z.boolean(),
});

/** POST {identity}/sign-out: the session is over and its cookie cleared. */
export const signOutSchema = z.looseObject({ success: z.boolean() });

/** POST {identity}/request-password-reset: the same answer whether or not the account exists. */
export const passwordResetRequestedSchema = z.looseObject({ status: z.boolean() });

/** POST {identity}/update-user and /send-verification-email: the name or picture is saved, the link is on its way. */
export const identityStatusSchema = z.looseObject({ status: z.boolean() });

/**
 * Any other answer of the identity provider under {identity} (Better Auth's own endpoints: sign-up, update-user,
 * verification, …): a JSON object of its design, passed through as it is (docs/identity.md).
 */
export const identityProviderAnswerSchema = z.looseObject({});
