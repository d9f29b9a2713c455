import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';

/** The header a reverse proxy sets with its own id of the request; the server answers with the id it used. */
const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an id from outside may look like: UUIDs, nginx's `$request_id`, Envoy's and most tracers' ids, up to 128
 * characters. Anything else (two headers joined with a comma, spaces, control or non-ASCII characters, a
 * kilobyte of text) is replaced by a new id, so a client cannot write into the logs through this header.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/**
 * Fastify's `genReqId`: the proxy's `X-Request-Id` when it is a sane value, else a new UUID. The id only ties log
 * lines together (docs/operations.md); nothing trusts it, so it is taken whoever sent it.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Every answer names the request's id, so a person reporting a problem can quote it and an operator find its log lines. */
export const requestIdPlugin = fp(async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
});
