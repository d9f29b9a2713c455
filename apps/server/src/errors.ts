import { errorCatalogue, type ErrorCode } from '@quire/core';

/**
 * Errors the API answers with. Throw these; the one error handler (plugins/error-handler.ts) turns them into
 * `{ code, message }` with the status. Anything else becomes a 500 whose details stay in the log.
 * Codes, statuses and messages come from the error catalogue in @quire/core.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export interface AppErrorOverrides {
  /** A more precise text than the catalogue's (a count, a field, a limit, the name of the product). */
  message?: string;
  /** Fields answered next to `code` and `message` (e.g. `invalidEmails`). */
  details?: Record<string, unknown>;
}

/** The catalogue's error for a code: its status and message, or a more precise message and details. */
export function appError(code: ErrorCode, overrides: AppErrorOverrides = {}): AppError {
  const entry = errorCatalogue[code];
  return new AppError(entry.status, code, overrides.message ?? entry.message, overrides.details);
}

/** 401: the request needs a session (or, with a code, another credential). */
export const unauthorised = (message?: string, code: ErrorCode = 'unauthorised') => appError(code, { message });

/** The 404 of a path that no route (nor the identity provider) answers. */
export const noRoute = (request: { method: string; url: string }) =>
  appError('not_found', { message: `No route for ${request.method} ${request.url.split('?')[0]}` });
