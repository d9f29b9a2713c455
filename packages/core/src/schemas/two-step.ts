import { z } from 'zod';
import { idSchema } from './common.js';

/**
 * 2-step verification (docs/identity.md "2-step verification"): the Security page's reads and changes, the
 * sign-in's second step, and an admin's reset of another admin's second factor.
 */

/** How a session passed its second step, as recorded on the session and in the audit trail. */
const twoStepMethodSchema = z.enum(['totp', 'recovery_code', 'passkey', 'trusted_device', 'enrolment']);
export type TwoStepMethod = z.infer<typeof twoStepMethodSchema>;

/** Recovery codes handed out at once, and how many a person gets. */
export const RECOVERY_CODE_COUNT = 10;
/** A trusted device skips the second step for at most this long. */
export const TRUSTED_DEVICE_DAYS = 30;

/** A code as typed: six digits (spaces allowed) or a recovery code; the server decides which and refuses the rest. */
const twoStepCodeSchema = z.string().max(64).describe('Six digits from the authenticator app, or a recovery code (xxxxx-xxxxx)');

/** A passkey on the Security page: never its key, only what the person named it and when it was added and last used. */
export const passkeySchema = z
  .object({
    id: z.string().describe('The credential id (base64url), as the authenticator names it'),
    name: z.string(),
    createdAt: z.string().describe('When it was added (ISO 8601)'),
    lastUsedAt: z.string().nullable().describe('When it last signed in (ISO 8601), or null'),
  })
  .describe('A passkey (WebAuthn credential)');
export type Passkey = z.infer<typeof passkeySchema>;

/** GET /api/two-step: the signed-in person's 2-step verification, never a secret or a code. */
export const twoStepStatusSchema = z
  .object({
    enabled: z.boolean(),
    authenticatorAddedAt: z.string().nullable().describe('When the authenticator app was confirmed (ISO 8601), or null'),
    recoveryCodesRemaining: z.number().int().min(0),
    requiredBy: z.enum(['organisation', 'provider-staff']).nullable().describe('Why this account may not turn it off, or null'),
    hasPassword: z.boolean().describe('False for an account that signs in with Google or Office 365 only: it confirms changes with a code'),
    passkeys: z.array(passkeySchema).describe('The passkeys on the account, oldest first'),
  })
  .describe('2-step verification of the signed-in account');
export type TwoStepStatus = z.infer<typeof twoStepStatusSchema>;

/** POST /api/two-step/authenticator: a new secret to scan, kept pending until a first code confirms it. */
export const authenticatorSetupSchema = z
  .object({
    secret: z.string().describe('The secret in Base32, for typing into the app by hand'),
    uri: z.string().describe('The otpauth:// URI the QR code holds'),
    qrCodeSvg: z.string().describe('The QR code of the URI, as an SVG document'),
    expiresAt: z.string().describe('The set-up must be confirmed before this time (ISO 8601)'),
  })
  .describe('An authenticator app set-up to confirm');
export type AuthenticatorSetup = z.infer<typeof authenticatorSetupSchema>;

export const twoStepCodeBodySchema = z.object({ code: twoStepCodeSchema });

/** Recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT) }).describe('Recovery codes, shown this once');
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** What proves it is the person before a change that weakens or reissues their second step: the password or a current code. */
export const twoStepProofSchema = z
  .object({
    password: z.string().max(4096).optional(),
    code: twoStepCodeSchema.optional(),
  })
  .refine((v) => (v.password ?? '') !== '' || (v.code ?? '') !== '', { message: 'Enter your password or a code from your authenticator app' });
export type TwoStepProof = z.infer<typeof twoStepProofSchema>;

/** POST /api/two-step/verify: the sign-in's second step. */
export const twoStepVerifyBodySchema = z.object({
  code: twoStepCodeSchema,
  trustDevice: z.boolean().default(false).describe('Skip the second step in this browser for 30 days'),
});

export const twoStepVerifiedSchema = z.object({ method: twoStepMethodSchema, recoveryCodesRemaining: z.number().int().min(0) });
export type TwoStepVerified = z.infer<typeof twoStepVerifiedSchema>;

export const twoStepChangedSchema = z.object({ enabled: z.boolean() });

/** The organisation's policy (PUT /api/organisations/{orgId}/two-step-policy). */
export const twoStepPolicySchema = z
  .object({
    requireForAdmins: z.boolean().describe("This organisation's own setting"),
    requiredByAbove: z.boolean().describe('An organisation above (the district) requires it of this one’s admins too'),
  })
  .describe('Require 2-step verification for admins');
export type TwoStepPolicy = z.infer<typeof twoStepPolicySchema>;
export const twoStepPolicyBodySchema = z.object({ requireForAdmins: z.boolean() });

export const twoStepResetParamsSchema = z.object({ orgId: idSchema, userId: idSchema });


/** What a person calls a passkey ('Work laptop'). */
const passkeyNameSchema = z.string().trim().min(1, 'Enter a name for the passkey').max(60, 'Use at most 60 characters');
export const PASSKEY_NAME_MAX = 60;

/** base64url as WebAuthn's JSON encodes binary values; bounded so nothing large is parsed. */
const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, 'not base64url');

/** Options for navigator.credentials.create / get, as the server made them (the browser library reads them). */
export const passkeyOptionsSchema = z.looseObject({ challenge: z.string() }).describe('WebAuthn options (PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON)');
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

/** The browser's answer to navigator.credentials.create, in WebAuthn's JSON form. */
const passkeyRegistrationResponseSchema = z.looseObject({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(65_536),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});

/** The browser's answer to navigator.credentials.get, in WebAuthn's JSON form. */
const passkeyAuthenticationResponseSchema = z.looseObject({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(16_384),
    signature: base64url(4096),
    userHandle: base64url(512).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});

/** POST /api/two-step/passkeys: the new passkey, checked against the challenge the server handed out. */
export const passkeyAddBodySchema = z.object({ name: passkeyNameSchema, response: passkeyRegistrationResponseSchema });

/** The passkey added; recovery codes (shown this once) when it turned 2-step verification on. */
export const passkeyAddedSchema = z.object({ passkey: passkeySchema, recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT).nullable() });
export type PasskeyAdded = z.infer<typeof passkeyAddedSchema>;

export const passkeyParamsSchema = z.object({ passkeyId: base64url(1400).min(1) });
export const passkeyRenameBodySchema = z.object({ name: passkeyNameSchema });

/** POST /api/two-step/verify/passkey: the second step with a passkey. */
export const twoStepPasskeyVerifyBodySchema = z.object({
  response: passkeyAuthenticationResponseSchema,
  trustDevice: z.boolean().default(false).describe('Skip the second step in this browser for 30 days'),
});

/** POST /auth/passkey: a sign-in with a passkey alone (both steps). */
export const passkeySignInBodySchema = z.object({ response: passkeyAuthenticationResponseSchema });
