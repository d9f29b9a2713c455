import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@quire/core';
import { AppError, noRoute } from '../errors.js';

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

/** An error as the status and `{ code, message }` the API answers with; 5xx details go to the log only. */
/** The JSON of an error answer: a catalogue code, its message, and the error's details. */
export type ErrorBody = { code: ErrorCode; message: string } & Record<string, unknown>;

export function errorResponse(error: Error, request: FastifyRequest): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return { status: error.statusCode, body: { code: error.code, message: error.message, ...error.details } };
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
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (options.notFoundFallback && (await options.notFoundFallback(request, reply))) return reply;
    const { status, body } = errorResponse(noRoute(request), request);
    return reply.status(status).send(body);
  });
});
