import { authErrorMessage, authMessages, googleAccessRequiredMessage } from '@quire/core';
import { AuthFailure } from './session-backend.js';
import type { AuthError } from './session-reducer.js';

export const ORGANISATIONS_FAILED_MESSAGE = authMessages.organisationLookupFailed;
export const NO_ACCOUNT_MESSAGE = authMessages.noOrganisations;

/** Any thrown value as the error a sign-in screen shows (spec §8). */
export function authFailureToError(error: unknown): AuthError {
  if (error instanceof AuthFailure) return { code: error.code, message: error.message };
  return { code: 'auth/internal-error', message: authErrorMessage('unknown') };
}

/** The code of a Google pop-up closed or refused (spec §8). */
export const GOOGLE_ACCESS_REFUSED_CODE = 'auth/popup-closed-by-user';

/**
 * The text a sign-in screen shows for an error: as the session gave it, except that the Google refusal
 * names the product, which only the screen knows from the console configuration.
 */
export function shownAuthMessage(error: Pick<AuthError, 'code' | 'message'>, productName: string): string {
  return error.code === GOOGLE_ACCESS_REFUSED_CODE ? googleAccessRequiredMessage(productName) : error.message;
}
