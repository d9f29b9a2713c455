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

/**
 * Whether a failed call carries one of these catalogue codes. It needs no catalogue at run time (the codes are
 * checked when it compiles), so the sign-in screens' first download does without it.
 */
export function hasErrorCode(error: unknown, ...codes: ErrorCode[]): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (codes as string[]).includes(code);
}
