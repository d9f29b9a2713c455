import { isErrorCode, type ErrorCode } from '@quire/core';

/**
 * The error catalogue's code of a failed call (an ApiError, a GraphqlError, an AuthFailure), or null when it has
 * none or one the catalogue does not name (the identity provider's own codes). Comparing it with a string that is
 * not a catalogue code does not compile.
 */
export function errorCode(error: unknown): ErrorCode | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return isErrorCode(code) ? code : null;
}

/** Whether a failed call carries one of these catalogue codes. */
export function hasErrorCode(error: unknown, ...codes: ErrorCode[]): boolean {
  const code = errorCode(error);
  return code !== null && codes.includes(code);
}
