import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@quire/core';
import { isPoolTimeout } from '../db/client.js';
import { AppError, appError, noRoute } from '../errors.js';

export interface ErrorHandlerOptions {
  /** Answers a request no route matched (the console's deep links); resolves false to fall through to the JSON 404. */
  notFoundFallback?: (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
}

/** Fastify's own 4xx errors, renamed to stable codes with messages a person can act on. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'The request body is empty but declared as JSON' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'Unsupported content type' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body_too_large', message: 'The request body is too large' },
};

/** The JSON of an error answer: a catalogue code, its message, and the error's details. */
export type ErrorBody = { code: ErrorCode; message: string } & Record<string, unknown>;

/**
 * Seconds a client is asked to wait before trying again after a 503 (Retry-After): the database pool or the password
 * hashing pool was full, which clears within a second or two once the burst has passed.
 */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The catalogue error an error stands for: itself when it is one; pg-pool's timeout waiting for a free connection is
 * 503 'server_busy' (a burst larger than the pool, not a fault: the client tries again shortly); anything else null.
 */
export function appErrorOf(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (isPoolTimeout(error)) return appError('server_busy');
  return null;
}

/** An error as the status and `{ code, message }` the API answers with; 5xx details go to the log only. */
export function errorResponse(error: Error, request: FastifyRequest): { status: number; body: ErrorBody } {
  const app = appErrorOf(error);
  if (app) {
    if (app !== error) request.log.warn({ err: error }, 'no database connection free in time: answered 503');
    return { status: app.statusCode, body: { code: app.code, message: app.message, ...app.details } };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
    const message = first ? `${field ? `${field}: ` : ''}${first.message}` : 'Invalid request';
    return { status: 400, body: { code: 'validation_error', message } };
  }
  const status = (error as { statusCode?: number }).statusCode;
  const fastifyCode = (error as { code?: string }).code;
  const known = fastifyCode ? FASTIFY_ERRORS[fastifyCode] : undefined;
  if (status && status >= 400 && status < 500) {
    // Fastify's other 4xx (a malformed URL, a bad content length) keep their message under the generic code.
    return { status, body: known ?? { code: 'bad_request', message: error.message } };
  }
  request.log.error({ err: error }, 'unhandled error');
  return { status: 500, body: { code: 'internal_error', message: 'Something went wrong' } };
}

/** The one place errors become responses: `{ code, message }`, never a stack trace. */
export const errorHandlerPlugin = fp<ErrorHandlerOptions>(async (app, options) => {
  app.setErrorHandler((error: Error, request, reply) => {
    const { status, body } = errorResponse(error, request);
    if (status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (options.notFoundFallback && (await options.notFoundFallback(request, reply))) return reply;
    const { status, body } = errorResponse(noRoute(request), request);
    return reply.status(status).send(body);
  });
});
