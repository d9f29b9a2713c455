/**
 * Errors the API answers with. Throw these; the one error handler (plugins/error-handler.ts) turns them into
 * `{ code, message }` with the status. Anything else becomes a 500 whose details stay in the log.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'bad_request', details?: Record<string, unknown>) =>
  new AppError(400, code, message, details);
export const unauthorised = (message = 'You need to sign in', code = 'unauthorised') => new AppError(401, code, message);
export const forbidden = (message = 'Your account cannot perform this action', code = 'forbidden') =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict', details?: Record<string, unknown>) =>
  new AppError(409, code, message, details);
export const tooEarly = (message: string, code = 'too_early') => new AppError(425, code, message);
export const tooManyRequests = (message: string, code = 'too_many_requests') => new AppError(429, code, message);
/** The 404 of a path that no route (nor the identity provider) answers. */
export const noRoute = (request: { method: string; url: string }) =>
  new AppError(404, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}`);
