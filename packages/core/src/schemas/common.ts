import { z } from 'zod';
import { isValidEmail } from '../email.js';
import { validationMessages } from '../messages.js';

/** An e-mail address as the API takes it: trimmed, lower-cased, well-formed (§5 texts). */
export const emailSchema = z
  .string({ error: validationMessages.emailRequired })
  .trim()
  .min(1, validationMessages.emailRequired)
  .toLowerCase()
  .pipe(z.email({ error: validationMessages.emailInvalid }).refine((v) => isValidEmail(v), validationMessages.emailInvalid));

/**
 * Every refusal's body (the one error handler, docs/architecture.md "Errors"): a stable machine code and a
 * message a person can act on. Some refusals add details (e.g. 401 of POST {api}/token: providerIds).
 */
export const errorBodySchema = z.looseObject({ code: z.string(), message: z.string() });

/** An id in a path or a body: 1 to 200 characters. */
export const idSchema = z.string().min(1).max(200);

/** `{orgId}` in a path. */
export const organisationParamsSchema = z.object({ orgId: idSchema });
