import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.js';
import { signIn, type SignedInHeaders } from '../../test/auth.js';
import { buildAdmin, buildOrganisation, buildTeacher } from '../../test/factories.js';

/**
 * A bounded, seeded fuzz over every route of /docs/json and every GraphQL operation. Each
 * request gets odd but plausible input (wrong types, huge and strange strings, real and unknown ids),
 * signed in as an admin or signed out. No answer may be a 5xx and the process may not report an error.
 * FUZZ_SEED and FUZZ_ROUNDS change the run; the defaults keep it to a few seconds of requests.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20260514);
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 3);

/** mulberry32: a small seeded generator, so a failure is reproduced with its seed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T };
}

let t: TestApp;
let headers: SignedInHeaders;
let orgId: string;
let memberId: string;
const processErrors: unknown[] = [];
const onProcessError = (error: unknown) => processErrors.push(error);

beforeAll(async () => {
  t = await buildTestApp();
  const org = await buildOrganisation(t.app.db, { org_libraries: true, visit_libraries: true });
  orgId = org.id;
  const admin = await buildAdmin(t.app.db, { organisationId: orgId });
  memberId = (await buildTeacher(t.app.db, { organisationId: orgId })).id;
  headers = (await signIn(t.app, { email: admin.email })).headers;
  process.on('unhandledRejection', onProcessError);
  process.on('uncaughtException', onProcessError);
}, 180_000);
afterAll(async () => {
  process.off('unhandledRejection', onProcessError);
  process.off('uncaughtException', onProcessError);
  await t?.close();
});

const rnd = generator(SEED);
const strings = () => [
  '',
  ' ',
  'a',
  'x'.repeat(5000),
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  'émoji ✓ 𝕏',
  'a\u0000b@x.org',
  '\u0000',
  'line\r\nbreak',
  '%',
  '\u202e',
  'null',
  '-1',
  '99999999999999999999',
  '2024-02-30',
  'ada@school.example.org',
  'not-an-email',
  orgId,
  memberId,
  crypto.randomUUID(),
];
const values = (): unknown[] => [...strings(), 0, -1, 1.5, 1e308, true, false, null, [], {}, [1, 'a'], { a: { b: [] } }];

/** A value for a JSON schema node, sometimes of the wrong type on purpose. */
function valueFor(schema: Record<string, unknown> | undefined, depth = 0): unknown {
  if (!schema || depth > 4 || rnd.next() < 0.2) return rnd.pick(values());
  const type = schema.type;
  if (Array.isArray(schema.enum) && rnd.next() < 0.7) return rnd.pick(schema.enum as unknown[]);
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      // Passwords stay non-strings: each real password try costs a 128 MiB hash (kept for hashing tests).
      if (/password/i.test(key)) out[key] = 12345;
      else if (rnd.next() < 0.85) out[key] = valueFor(child, depth + 1);
    }
    return out;
  }
  if (type === 'array') return Array.from({ length: Math.floor(rnd.next() * 4) }, () => valueFor(schema.items as Record<string, unknown>, depth + 1));
  if (type === 'integer' || type === 'number') return rnd.pick([0, 1, -1, 10, 100, 7, 1e9, 2.5]);
  if (type === 'boolean') return rnd.next() < 0.5;
  return rnd.pick(strings());
}

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; schema?: Record<string, unknown> }>;
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
}

function looksLikeServerError(status: number) {
  return status >= 500;
}

describe('fuzz', () => {
  it('no route of /docs/json answers a 5xx to odd input', async () => {
    const docs = (await t.app.inject({ url: '/docs/json' })).json() as { paths: Record<string, Record<string, OpenApiOperation>> };
    const failures: string[] = [];
    let sent = 0;
    for (const [path, operations] of Object.entries(docs.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const verb = method.toUpperCase();
        if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(verb)) continue;
        // Ending the shared session would only make the rest of the run signed out.
        if (/sign-out|revoke-session|delete-user/.test(path)) continue;
        for (let round = 0; round < ROUNDS; round++) {
          let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
            const value = name.toLowerCase().includes('org') && rnd.next() < 0.6 ? orgId : rnd.pick(strings());
            return encodeURIComponent(String(value)) || 'x';
          });
          const query = new URLSearchParams();
          for (const p of operation.parameters ?? []) {
            if (p.in === 'query' && rnd.next() < 0.7) query.set(p.name, String(valueFor(p.schema)));
          }
          if ([...query].length) url += `?${query.toString()}`;
          const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
          const request: InjectOptions = {
            method: verb as InjectOptions['method'],
            url,
            headers: rnd.next() < 0.8 ? headers : { origin: headers.origin },
          };
          if (verb !== 'GET' && verb !== 'DELETE') {
            request.payload = rnd.next() < 0.1 ? '{"broken": ' : (valueFor(bodySchema) as InjectOptions['payload']);
            if (typeof request.payload === 'string') request.headers = { ...request.headers, 'content-type': 'application/json' };
          }
          const response = await t.app.inject(request);
          sent += 1;
          if (looksLikeServerError(response.statusCode)) failures.push(`${verb} ${url} → ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(20);
    expect(failures).toEqual([]);
    expect(processErrors).toEqual([]);
  }, 240_000);

  it('no GraphQL operation answers a 5xx to odd arguments', async () => {
    // The REST pass above may have changed its organisation for good (e.g. required 2-step verification of its admins,
    // after which the admin's session opens nothing until they enrol): this pass starts from a fresh one.
    const org = await buildOrganisation(t.app.db, { org_libraries: true, visit_libraries: true });
    orgId = org.id;
    const admin = await buildAdmin(t.app.db, { organisationId: orgId });
    memberId = (await buildTeacher(t.app.db, { organisationId: orgId })).id;
    headers = (await signIn(t.app, { email: admin.email })).headers;
    const introspection = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: {
        query: `{ __schema {
          queryType { fields { name args { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } }
          mutationType { fields { name args { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } }
          types { name kind fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } inputFields { name type { kind name ofType { kind name ofType { kind name } } } } enumValues { name } }
        } }`,
      },
    });
    expect(introspection.statusCode).toBe(200);
    interface TypeRef { kind: string; name: string | null; ofType?: TypeRef | null }
    interface Field { name: string; args?: Array<{ name: string; type: TypeRef }>; type: TypeRef }
    interface NamedType { name: string; kind: string; fields: Field[] | null; inputFields: Array<{ name: string; type: TypeRef }> | null; enumValues: Array<{ name: string }> | null }
    const schema = introspection.json().data.__schema as { queryType: { fields: Field[] }; mutationType: { fields: Field[] }; types: NamedType[] };
    const types = new Map(schema.types.map((ty) => [ty.name, ty]));
    const named = (ref: TypeRef): TypeRef => (ref.ofType ? named(ref.ofType) : ref);
    const isList = (ref: TypeRef): boolean => ref.kind === 'LIST' || (ref.ofType ? isList(ref.ofType) : false);

    const literal = (ref: TypeRef, depth = 0): string => {
      const base = named(ref);
      const one = (): string => {
        if (rnd.next() < 0.15) return rnd.pick(['null', '"x"', '1', 'true', '[]', '{}']);
        const type = base.name ? types.get(base.name) : undefined;
        if (base.kind === 'ENUM') return type?.enumValues?.length ? rnd.pick(type.enumValues).name : 'X';
        if (base.kind === 'INPUT_OBJECT' && type?.inputFields && depth < 3) {
          return `{ ${type.inputFields.map((f) => `${f.name}: ${literal(f.type, depth + 1)}`).join(', ')} }`;
        }
        if (base.name === 'Int') return String(rnd.pick([0, 1, -1, 10, 400, 600, -600, 2147483647]));
        if (base.name === 'Boolean') return rnd.pick(['true', 'false']);
        if (base.name === 'JSONObject') return rnd.pick(['{ a: 1 }', '{}', '{ apps: { canva: -1 } }']);
        if (base.name === 'LibraryQuota') return rnd.pick(['1', '"UNLIMITED"', '-5']);
        if (base.name === 'ID') return JSON.stringify(rnd.pick([orgId, memberId, crypto.randomUUID(), 'x']));
        return JSON.stringify(rnd.pick(strings()));
      };
      return isList(ref) ? `[${Array.from({ length: 1 + Math.floor(rnd.next() * 3) }, one).join(', ')}]` : one();
    };
    const selection = (ref: TypeRef, depth = 0): string => {
      const type = named(ref).name ? types.get(named(ref).name as string) : undefined;
      if (!type?.fields) return '';
      if (depth > 2) return '{ __typename }';
      return `{ ${type.fields.map((f) => `${f.name} ${selection(f.type, depth + 1)}`).join(' ')} }`;
    };

    const failures: string[] = [];
    let sent = 0;
    for (const [kind, fields] of [['query', schema.queryType.fields], ['mutation', schema.mutationType.fields]] as const) {
      for (const field of fields) {
        if (field.name === '_empty') continue;
        for (let round = 0; round < ROUNDS; round++) {
          const args = (field.args ?? [])
            .filter(() => rnd.next() < 0.95)
            .map((a) => `${a.name}: ${a.name.toLowerCase().includes('org') && rnd.next() < 0.6 ? JSON.stringify(orgId) : literal(a.type)}`);
          const query = `${kind} { ${field.name}${args.length ? `(${args.join(', ')})` : ''} ${selection(field.type)} }`;
          const response = await t.app.inject({ method: 'POST', url: '/graphql', headers: rnd.next() < 0.85 ? headers : { origin: headers.origin }, payload: { query } });
          sent += 1;
          const body = response.body;
          if (looksLikeServerError(response.statusCode) || body.includes('"internal_error"')) failures.push(`${query.slice(0, 300)} → ${response.statusCode} ${body.slice(0, 200)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(20);
    expect(failures).toEqual([]);
    expect(processErrors).toEqual([]);
  }, 240_000);
});
