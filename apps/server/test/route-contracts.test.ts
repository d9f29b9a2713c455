import { graphqlContracts, restContracts } from '@quire/core';
import { buildSchema, getNamedType, isObjectType, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { graphqlModules } from '../src/app.js';
import { mergeGraphqlModules } from '../src/modules/graphql/registry.js';
import { buildTestApp, type TestApp } from './helper.js';

/**
 * The contracts: every route documents what it answers (so /docs shows every answer), and every
 * JSON answer is the schema @quire/core names for it (`restContracts`), the one the console parses with and
 * the console's test fake checks against. GraphQL fields are checked the same way against `graphqlContracts`.
 */

interface OpenApiResponse {
  description?: string;
  content?: Record<string, { schema?: JsonSchema }>;
}
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
}
type OpenApiDocument = { paths: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>> };

let t: TestApp;
let operations: Array<{ key: string; responses: Record<string, OpenApiResponse> }>;

beforeAll(async () => {
  t = await buildTestApp();
  const doc = t.app.swagger() as unknown as OpenApiDocument;
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      // OpenAPI's /api/{teacherId} and /identity/{*} as the server registers them: /api/:teacherId, /identity/*.
      key: `${method.toUpperCase()} ${path.replace(/\{\*\}/g, '*').replace(/\{([^}]+)\}/g, ':$1')}`,
      responses: operation.responses ?? {},
    })),
  );
});
afterAll(() => t?.close());

/** An answer with no body: 204 No Content, 304 Not Modified, or a redirect. */
const withoutBody = (status: string) => status === '204' || /^3\d\d$/.test(status);

/** Every property path of a JSON schema (objects, arrays, unions), e.g. `members[].license.id`. */
function shapeOf(schema: JsonSchema | undefined, path = ''): string[] {
  if (!schema) return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return [
    ...Object.entries(schema.properties ?? {}).flatMap(([key, value]) => [`${path}${key}`, ...shapeOf(value, `${path}${key}.`)]),
    ...shapeOf(schema.items, `${path}[].`),
    ...branches.flatMap((branch) => shapeOf(branch, path)),
  ].filter((p, i, all) => all.indexOf(p) === i);
}

/** The same paths of a zod schema, read through its JSON Schema (as /docs shows it). */
const zodShape = (schema: z.core.$ZodType) => shapeOf(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema).sort();

describe('the REST routes document their answers (/docs)', () => {
  it('every route documents what it answers: a schema for each body, no bare "Default Response"', () => {
    expect(operations.length).toBeGreaterThan(40);
    const undocumented = operations
      .filter(({ responses }) => {
        // /graphql's envelope ({ data, errors }) is mercurius' own schema; its fields are checked below.
        const entries = Object.entries(responses);
        const bare = entries.filter(([status, r]) => !withoutBody(status) && !Object.values(r.content ?? {}).some((c) => c.schema));
        return entries.length === 0 || bare.length > 0;
      })
      .map(({ key }) => key);
    expect(undocumented).toEqual([]);
  });

  it('every route declares its success answer, with the fields it answers', () => {
    // A launch from a learning platform succeeds with a redirect; GET /lti/launch only ever answers the spec's 405 page.
    const succeeds = (status: string) => /^[23](\d\d|XX)$/.test(status);
    const withoutSuccess = operations.filter(({ key, responses }) => key !== 'GET /lti/launch' && !Object.keys(responses).some(succeeds));
    expect(withoutSuccess.map(({ key }) => key)).toEqual([]);
    // Only the identity provider's catch-alls pass answers of many shapes through; every other route names its fields.
    const VARIED = ['POST /identity/sign-in/*', 'POST /identity/sign-up/*', 'GET /identity/*', 'POST /identity/*'];
    const shapeless = operations.filter(({ key, responses }) => {
      const schema = responses['200']?.content?.['application/json']?.schema;
      return schema && !VARIED.includes(key) && schema.type === 'object' && Object.keys(schema.properties ?? {}).length === 0;
    });
    expect(shapeless.map(({ key }) => key)).toEqual([]);
  });

  it('every route declares its 4xx answers with the error schema', () => {
    // Refusals that are not JSON: the GraphQL envelope ({ data, errors }), the LTI pages' and the reset page's HTML.
    const LTI_PAGES = ['POST /lti/launch', 'GET /lti/launch', 'GET /lti/1.3/login', 'POST /lti/1.3/login', 'POST /lti/1.3/launch', 'POST /lti/1.3/launch/storage', 'POST /lti/1.3/deep-link', 'GET /lti/1.3/register', 'POST /lti/1.3/register'];
    const NOT_JSON = ['GET /graphql', 'POST /graphql', ...LTI_PAGES, 'GET /auth/reset-password', 'POST /auth/reset-password'];
    const isErrorSchema = (schema: (JsonSchema & { $ref?: string }) | undefined) =>
      schema?.$ref === '#/components/schemas/Error' ||
      schema?.$ref === '#/components/schemas/IdentityProviderError' ||
      (Array.isArray((schema?.properties?.code as { enum?: unknown } | undefined)?.enum) && !!schema?.properties?.message);
    const undeclared = operations
      // The analytics intake declares its own 400 (its refusal, or `{ code, message }` with any code): not changed here.
      // The SCIM endpoint answers refusals in SCIM's own error format, in application/scim+json (RFC 7644 §3.12).
      .filter(({ key }) => !NOT_JSON.includes(key) && key !== 'POST /analytics/events' && !key.includes(' /scim/v2/'))
      .filter(({ responses }) => {
        const refusals = Object.entries(responses).filter(([status]) => status.startsWith('4'));
        return refusals.length === 0 || refusals.some(([, answer]) => !isErrorSchema(answer.content?.['application/json']?.schema));
      })
      .map(({ key }) => key);
    expect(undeclared).toEqual([]);
  });

  it('every JSON answer is the contract @quire/core names for the route, and every contract has its route', () => {
    const json = operations.filter(({ responses }) => responses['200']?.content?.['application/json']);
    const mismatched = json
      .filter(({ key }) => !(key in restContracts))
      .map(({ key }) => `${key}: no entry in restContracts`);
    for (const { key, responses } of json) {
      const contract = restContracts[key as keyof typeof restContracts];
      if (!contract) continue;
      const documented = shapeOf(responses['200']?.content?.['application/json']?.schema).sort();
      if (JSON.stringify(documented) !== JSON.stringify(zodShape(contract))) mismatched.push(`${key}: documents another shape than its contract`);
    }
    const routed = new Set(json.map(({ key }) => key));
    const unrouted = Object.keys(restContracts).filter((key) => !routed.has(key));
    expect(mismatched).toEqual([]);
    expect(unrouted).toEqual([]);
  });
});

describe('the GraphQL fields answer what their contracts say', () => {
  /** Fields of a zod object schema (through optional/nullable/array wrappers), or null for a leaf. */
  function zodFields(schema: ZodType): Record<string, ZodType> | null {
    const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
    const unwrap = (s: JsonSchema | undefined): JsonSchema | undefined => (s?.items ? unwrap(s.items) : s?.anyOf ? unwrap(s.anyOf.find((b) => b.type !== 'null')) : s);
    const object = unwrap(json);
    if (!object?.properties) return null;
    const shape = (schema as unknown as { _zod: { def: { shape?: Record<string, ZodType>; element?: ZodType; innerType?: ZodType } } })._zod.def;
    if (shape.element) return zodFields(shape.element);
    if (shape.innerType) return zodFields(shape.innerType);
    return shape.shape ?? null;
  }

  /** Every field the contract names that the GraphQL type does not have (so the console could not ask for it). */
  function missingFields(contract: ZodType, type: GraphQLObjectType, path: string): string[] {
    const fields = zodFields(contract);
    if (!fields) return [];
    const graphqlFields = type.getFields();
    return Object.entries(fields).flatMap(([name, schema]) => {
      const field = graphqlFields[name];
      if (!field) return [`${path}.${name}`];
      const named = getNamedType(field.type);
      return isObjectType(named) ? missingFields(schema, named, `${path}.${name}`) : [];
    });
  }

  it('every field of graphqlContracts exists, and every field its contract names is in the schema', () => {
    const schema = buildSchema(mergeGraphqlModules(graphqlModules).schema);
    const roots = [schema.getQueryType(), schema.getMutationType()].flatMap((root) => (root ? Object.values(root.getFields()) : []));
    const problems = Object.entries(graphqlContracts).flatMap(([name, contract]) => {
      const field = roots.find((f) => f.name === name);
      if (!field) return [`${name}: not a Query or Mutation field`];
      const named = getNamedType(field.type);
      return isObjectType(named) ? missingFields(contract, named, name) : [];
    });
    expect(problems).toEqual([]);
  });
});
