import type { ErrorCode } from '@quire/core';

/**
 * Whether a failed call carries one of these catalogue codes. It needs no catalogue at run time (the codes are
 * checked when it compiles), so the sign-in screens' first download does without it.
 */
export function hasErrorCode(error: unknown, ...codes: ErrorCode[]): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (codes as string[]).includes(code);
}
