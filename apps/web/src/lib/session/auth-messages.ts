import { authErrorMessage, authMessages } from '@quire/core';
import { AuthFailure } from './session-backend.js';
import type { AuthError } from './session-reducer.js';

export const ORGANISATIONS_FAILED_MESSAGE = authMessages.organisationLookupFailed;
export const NO_ACCOUNT_MESSAGE = authMessages.noOrganisations;

/** Any thrown value as the error a sign-in screen shows (spec §8). */
export function authFailureToError(error: unknown): AuthError {
  if (error instanceof AuthFailure) return { code: error.code, message: error.message };
  return { code: 'auth/internal-error', message: authErrorMessage('unknown') };
}
