import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, errorResponseSchema } from '@quire/core';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * A `response` entry for an answer that is not JSON (a CSV, a page, an image, a token as text): its media
 * type in /docs. Fastify sends such bodies (strings, buffers, streams) as they are, never through a serializer.
 */
export function textResponse(contentType: string, description: string) {
  // Documented as a string; typed as anything, so a handler may send a stream or a buffer.
  const body = z.string() as unknown as z.ZodType<unknown>;
  return { description, content: { [contentType]: { schema: body } } };
}

const EMPTY = 'x-quire-empty';

/** A `response` entry for an answer without a body (204, 304, a redirect): documented, nothing to serialise. */
export function emptyResponse(description: string) {
  return z.null().describe(description).meta({ [EMPTY]: true });
}

/** /docs shows an answer without a body as just its description (the OpenAPI way), not as a JSON null. */
function withEmptyResponses(result: ReturnType<typeof jsonSchemaTransform>): ReturnType<typeof jsonSchemaTransform> {
  const response = (result.schema as { response?: Record<string, Record<string, unknown>> } | undefined)?.response;
  for (const [status, schema] of Object.entries(response ?? {})) {
    if (schema?.[EMPTY]) response![status] = { type: 'null', description: schema.description };
  }
  return result;
}

/** The error answers, once under components: the server's (a code of the catalogue), and the identity provider's. */
const ERROR_SCHEMAS = {
  Error: z.toJSONSchema(errorResponseSchema, { target: 'openapi-3.0' }),
  IdentityProviderError: z.toJSONSchema(errorBodySchema.describe("The server's error, or the identity provider's own code"), { target: 'openapi-3.0' }),
};
const errorAnswer = (name: keyof typeof ERROR_SCHEMAS, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
});
const SERVER_ERROR = errorAnswer('Error', 'Refused: a code of the error catalogue (the Error schema lists them) and a message a person can act on');
const PROVIDER_ERROR = errorAnswer('IdentityProviderError', "Refused: the server's error, or the identity provider's (Better Auth) with its own code");

/** Every route that declares no 4xx answer of its own answers its refusals with the JSON error `{ code, message }`. */
function withErrorAnswers(url: string, result: ReturnType<typeof jsonSchemaTransform>): ReturnType<typeof jsonSchemaTransform> {
  const schema = (result.schema ?? {}) as { response?: Record<string, unknown> };
  const response = (schema.response ??= {});
  if (!Object.keys(response).some((status) => status.startsWith('4'))) response['4XX'] = url.startsWith('/identity/') ? PROVIDER_ERROR : SERVER_ERROR;
  return { ...result, schema } as ReturnType<typeof jsonSchemaTransform>;
}

const isZod = (value: unknown) => typeof value === 'object' && value !== null && '_zod' in value;
const isPlainJsonSchema = (value: unknown) =>
  typeof value === 'object' && value !== null && !isZod(value) && !('content' in value);

/**
 * zod schemas become OpenAPI; routes that bring plain JSON schemas (mercurius' /graphql) pass through
 * unchanged, since the zod transform cannot read them.
 */
function transform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const schema = input.schema as Record<string, unknown> | undefined;
  const parts = [schema?.body, schema?.querystring, schema?.params, schema?.headers, ...Object.values((schema?.response as object) ?? {})];
  if (parts.some(isPlainJsonSchema)) return { schema: input.schema, url: input.url } as ReturnType<typeof jsonSchemaTransform>;
  return withErrorAnswers(input.url, withEmptyResponses(jsonSchemaTransform(input)));
}
import { publicUrl } from '../env.js';

/**
 * OpenAPI 3 built from every route's zod schemas, browsable at /docs (JSON at /docs/json).
 * Register before the routes so their schemas are collected.
 */
export const apiDocsPlugin = fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: `${app.env.PRODUCT_NAME} API`,
        description: 'The services the admin console calls: auth, api, payments, analytics, assets, identity.',
        version: '1.0.0',
      },
      servers: [{ url: publicUrl(app.env) }],
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: '__admin_session' } },
        schemas: ERROR_SCHEMAS as Record<string, Record<string, unknown>>,
      },
    },
    transform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
});
