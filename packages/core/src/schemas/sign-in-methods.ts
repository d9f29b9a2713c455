import * as z from 'zod/mini';

/**
 * GET {auth}/methods: which sign-in methods this server is configured for. zod/mini, as console-config.ts says why:
 * /sign-in parses it before it shows its choices.
 */
export const signInMethodsSchema = z.object({ google: z.boolean(), office365: z.boolean(), email: z.boolean() });
export type SignInMethods = z.infer<typeof signInMethodsSchema>;
