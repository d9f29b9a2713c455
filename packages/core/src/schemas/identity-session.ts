import * as z from 'zod/mini';

/**
 * GET {identity}/get-session and POST {identity}/one-time-token/verify: the signed-in user, or null. The provider
 * (Better Auth) sends more fields than these, which the contract lets through (loose objects). zod/mini, as
 * console-config.ts says why: every page parses it before it shows anything.
 */
export const identitySessionSchema = z.nullable(
  z.looseObject({
    user: z.looseObject({
      id: z.string(),
      email: z.string(),
      name: z.nullish(z.string()),
      image: z.nullish(z.string()),
      emailVerified: z.boolean(),
    }),
    /**
     * Quire's own: 'second-step' while the session waits for its second step (a code, a passkey or a recovery
     * code), 'enrol' while the person must turn 2-step verification on first; absent when neither.
     */
    twoStep: z.optional(z.enum(['second-step', 'enrol'])),
  }),
);
export type IdentitySession = z.infer<typeof identitySessionSchema>;
