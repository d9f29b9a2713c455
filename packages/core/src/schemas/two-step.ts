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

/** GET /api/two-step: the signed-in person's 2-step verification, never a secret or a code. */
export const twoStepStatusSchema = z
  .object({
    enabled: z.boolean(),
    authenticatorAddedAt: z.string().nullable().describe('When the authenticator app was confirmed (ISO 8601), or null'),
    recoveryCodesRemaining: z.number().int().min(0),
    requiredBy: z.enum(['organisation', 'provider-staff']).nullable().describe('Why this account may not turn it off, or null'),
    hasPassword: z.boolean().describe('False for an account that signs in with Google or Office 365 only: it confirms changes with a code'),
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
