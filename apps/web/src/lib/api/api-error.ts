/**
 * A failed call to one of the console's services: the HTTP status (0 when the network failed),
 * the server's stable machine code, a message, and the parsed body for callers that need more
 * (e.g. the 401 of POST {api}{token} carries providerIds).
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly body: unknown;

  constructor(init: { status: number; code: string; message: string; body?: unknown; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.body = init.body ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The code of an ApiError whose answer did not match the call's schema (a server or contract defect). */
export const INVALID_RESPONSE = 'invalid_response';

/** The error handler's `{ code, message }`, when the body has that shape. */
export function readErrorBody(body: unknown): { code?: string; message?: string } {
  if (!body || typeof body !== 'object') return {};
  const record = body as Record<string, unknown>;
  return {
    code: typeof record.code === 'string' ? record.code : undefined,
    message: typeof record.message === 'string' ? record.message : undefined,
  };
}
