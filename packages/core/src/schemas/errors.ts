import { z } from 'zod';
import { errorCodes, type ErrorCode } from '../error-codes.js';

/**
 * Every 4xx and 5xx JSON answer: the code, the message a person can act on, and for some codes details
 * (e.g. `invalidEmails`, `reasons`, `available`) next to them.
 */
export const errorResponseSchema = z
  .looseObject({
    code: z.enum(errorCodes as [ErrorCode, ...ErrorCode[]]).describe('A code of the error catalogue'),
    message: z.string().describe('What went wrong, in words a person can act on'),
  })
  .describe('An error');
