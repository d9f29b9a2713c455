import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

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
  return jsonSchemaTransform(input);
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
      },
    },
    transform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
});
