import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.js';
import { signIn } from '../../../test/auth.js';
import { buildTeacher } from '../../../test/factories.js';
import { recordStatements } from '../../../test/statements.js';
import { orgWithAdmin } from '../../../test/teachers.helpers.js';

/** No side effect over GET; cost limits, introspection and request errors. */
let t: TestApp;
const logLines: Array<{ level: number; msg?: string }> = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logLines.push(JSON.parse(line) as { level: number; msg?: string });
      done();
    },
  });
  t = await buildTestApp({}, { logger: { level: 'info', stream } });
}, 180_000);
afterAll(() => t?.close());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@school.example.org`;

async function outboxCount(orgId: string): Promise<number> {
  await t.app.mail.waitForIdle();
  const rows = await t.app.db.selectFrom('mail_outbox').select('id').where('organisation_id', '=', orgId).execute();
  return rows.length;
}

describe('GraphQL over GET changes nothing (CSRF)', () => {
  it.each([
    ['sendEmail is not a query: a cross-site GET carrying the cookie sends no mail', 'query', 400],
    ['a mutation over GET is refused with 405 and runs nothing', 'mutation', 405],
  ])('%s', async (_title, operation, status) => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const query = `${operation} { sendEmail(orgId: "${orgId}", email: { kind: WELCOME, subject: "Hi", body: { plain: "x" }, members: ["${teacher.id}"] }) { sentTo } }`;
    const response = await t.app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent(query)}`, headers: { cookie: headers.cookie } });
    expect(response.statusCode).toBe(status);
    expect(await outboxCount(orgId)).toBe(0);
  });

  it('a cross-site fetch of GET /graphql is refused', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: `/graphql?query=${encodeURIComponent('{ getOrganisations { id } }')}`,
      headers: { cookie: headers.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('the mutation still sends from the console', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const query = `mutation($orgId: ID!, $email: TeacherEmailInput!) { sendEmail(orgId: $orgId, email: $email) { sentTo } }`;
    const email = { kind: 'WELCOME', subject: 'Hi', body: { plain: 'x' }, members: [teacher.id] };
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables: { orgId, email } } });
    expect(response.statusCode).toBe(200);
    expect(await outboxCount(orgId)).toBe(1);
  });
});

describe('GraphQL cost limits', () => {
  it('refuses 5,000 aliases with 400 before any of them runs', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const query = `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: getOrganisations { id }`).join(' ')} }`;
    const recorded = recordStatements(t.app.db);
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query } });
    recorded.stop();
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].extensions.code).toBe('graphql_too_complex');
    // Refused from the query's shape: no statement but the sign-in session's read, so no resolver reached the database.
    expect(recorded.sql.filter((text) => !/\bsession\b/i.test(text))).toEqual([]);
  });

  it('refuses a query that asks for too many fields through fragments', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const fields = Array.from({ length: 40 }, (_, i) => `f${i}: id`).join(' ');
    const query = `fragment F on OrganisationSummary { ${fields} } { ${Array.from({ length: 40 }, (_, i) => `o${i}: getOrganisations { ...F }`).join(' ')} }`;
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query } });
    expect(response.statusCode).toBe(400);
  });

  it('counts root fields inside inline and named fragments on Query', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const roots = Array.from({ length: 16 }, (_, i) => `r${i}: getOrganisations { id }`).join(' ');
    const queries = [
      `{ ... on Query { ${roots} } }`,
      `{ ... { ${roots} } }`,
      `fragment R on Query { ${roots} } { ...R }`,
      // 8 + 8 through two fragments, one nested in the other's inline fragment
      `fragment A on Query { ${roots.split(' getOrganisations { id } ').slice(0, 8).join(' getOrganisations { id } ')} getOrganisations { id } } { ...A ... on Query { ${Array.from({ length: 8 }, (_, i) => `s${i}: getOrganisations { id }`).join(' ')} } }`,
    ];
    for (const query of queries) {
      const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query } });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors[0].extensions.code, query).toBe('graphql_too_complex');
    }
    // 15 through a fragment stays allowed.
    const fifteen = Array.from({ length: 15 }, (_, i) => `r${i}: getOrganisations { id }`).join(' ');
    const allowed = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: `{ ... on Query { ${fifteen} } }` } });
    expect(allowed.statusCode).toBe(200);
  });

  it('refuses batches with 400', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: [{ query: '{ getOrganisations { id } }' }, { query: '{ getOrganisations { id } }' }],
    });
    expect(response.statusCode).toBe(400);
  });

  it('still answers what the console asks', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: '{ getOrganisations { id name } }' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().errors).toBeUndefined();
  });
});

describe('control characters in GraphQL string literals', () => {
  it('a NUL written as \\u0000 inside the query is refused with 400 and reaches no database', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const query = `mutation { sendEmail(orgId: "${orgId}", email: { kind: WELCOME, subject: "a", body: { plain: "x" }, members: ["a\\u0000b@x.org"] }) { sentTo } }`;
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ query }) });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].extensions.code).toBe('invalid_characters');
    // Line breaks and tabs in a message stay allowed.
    const teacher = await buildTeacher(t.app.db, { organisationId: orgId });
    const fine = `mutation { sendEmail(orgId: "${orgId}", email: { kind: WELCOME, subject: "a", body: { plain: "line\\none\\tand two" }, members: ["${teacher.id}"] }) { sentTo } }`;
    const sent = await t.app.inject({ method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ query: fine }) });
    expect(sent.json().errors).toBeUndefined();
  });
});

describe('GraphQL introspection', () => {
  const INTROSPECT = '{ __schema { queryType { name } } }';
  it('is refused signed out and for a user who is no admin', async () => {
    const signedOut = await t.app.inject({ method: 'POST', url: '/graphql', headers: { origin: 'http://localhost:3100' }, payload: { query: INTROSPECT } });
    expect(signedOut.statusCode).toBe(400);
    const teacher = await signIn(t.app, { email: unique('nobody') });
    const notAdmin = await t.app.inject({ method: 'POST', url: '/graphql', headers: teacher.headers, payload: { query: INTROSPECT } });
    expect(notAdmin.statusCode).toBe(400);
    const typeQuery = await t.app.inject({ method: 'POST', url: '/graphql', headers: teacher.headers, payload: { query: '{ __type(name: "Organisation") { name } }' } });
    expect(typeQuery.statusCode).toBe(400);
  });

  it('is answered for a signed-in admin outside production', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: INTROSPECT } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.__schema.queryType.name).toBe('Query');
  });

  it('is refused in production even for an admin', async () => {
    // Production requires the LTI encryption key (env.ts); any 32 bytes will do here.
    const production = await buildTestApp({ NODE_ENV: 'production', LTI_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
    try {
      const { headers } = await orgWithAdmin(production.app);
      const response = await production.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: INTROSPECT } });
      expect(response.statusCode).toBe(400);
    } finally {
      await production.close();
    }
  });
});

describe('GraphQL field suggestions', () => {
  // "Did you mean …?" would map the schema for someone who may not introspect it.
  it('are never given, in validation errors or in variable errors', async () => {
    const { orgId, headers } = await orgWithAdmin(t.app);
    const typo = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: `{ getOrganisationById(id: "${orgId}") { lti { consumerSecre } } }` } });
    expect(typo.statusCode).toBe(400);
    expect(typo.body).toContain('consumerSecre');
    expect(typo.body).not.toMatch(/did you mean/i);
    const rootTypo = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query: '{ getOrganisation { id } }' } });
    expect(rootTypo.statusCode).toBe(400);
    expect(rootTypo.body).not.toMatch(/did you mean/i);
    const query = `mutation($orgId: ID!, $email: TeacherEmailInput!) { sendEmail(orgId: $orgId, email: $email) { sentTo } }`;
    const email = { kind: 'WELCOM', subject: 'Hi', body: { plain: 'x' }, members: [] };
    const badEnum = await t.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables: { orgId, email } } });
    expect(badEnum.statusCode).toBe(400);
    expect(badEnum.body).toContain('WELCOM');
    expect(badEnum.body).not.toMatch(/did you mean/i);
  });
});

describe('GraphQL request errors are 4xx, not 200 internal_error, and are not logged as server errors', () => {
  it('answers each bad request with its status', async () => {
    const { headers } = await orgWithAdmin(t.app);
    const before = logLines.length;
    const cases: Array<{ name: string; status: number; request: InjectOptions }> = [
      { name: 'validation', status: 400, request: { method: 'POST', url: '/graphql', headers, payload: { query: '{ nothing }' } } },
      { name: 'syntax', status: 400, request: { method: 'POST', url: '/graphql', headers, payload: { query: '{ getOrganisations { id ' } } },
      { name: 'no query', status: 400, request: { method: 'POST', url: '/graphql', headers, payload: { variables: {} } } },
      { name: 'query not a string', status: 400, request: { method: 'POST', url: '/graphql', headers, payload: { query: 42 } } },
      { name: 'malformed JSON', status: 400, request: { method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json' }, payload: '{"query": ' } },
      { name: 'mutation over GET', status: 405, request: { method: 'GET', url: `/graphql?query=${encodeURIComponent('mutation { _empty }')}`, headers: { cookie: headers.cookie } } },
      { name: 'oversize body', status: 413, request: { method: 'POST', url: '/graphql', headers, payload: { query: `{ getOrganisations { id } } #${'x'.repeat(6 * 1024 * 1024)}` } } },
      {
        name: 'false gzip header',
        status: 400,
        request: { method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: '{"query":"{ _empty }"}' },
      },
      { name: 'unknown encoding', status: 415, request: { method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'br2' }, payload: '{}' } },
      { name: 'text body', status: 415, request: { method: 'POST', url: '/graphql', headers: { ...headers, 'content-type': 'text/plain' }, payload: '{ _empty }' } },
      { name: 'variables not an object', status: 400, request: { method: 'POST', url: '/graphql', headers, payload: { query: '{ _empty }', variables: 'x' } } },
    ];
    for (const c of cases) {
      const response = await t.app.inject(c.request);
      expect(response.statusCode, c.name).toBe(c.status);
      expect(response.body, c.name).not.toContain('internal_error');
    }
    // A real gzip body works.
    const gzipped = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(Buffer.from('{"query":"{ _empty }"}')),
    });
    expect(gzipped.statusCode).toBe(200);
    const serverErrors = logLines.slice(before).filter((l) => l.level >= 50);
    expect(serverErrors).toEqual([]);
  });
});
