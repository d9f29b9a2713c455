import { contractProblems, errorBodySchema, graphqlContracts, restContractFor, type GraphqlContractField } from '@quire/core';
import { onTestFinished, vi } from 'vitest';

/**
 * The one way component tests fake the network. Every answer a test gives is checked against the contract
 * of its call in @quire/core (`restContracts`, `graphqlContracts`), the same schemas the server declares
 * and the console parses with: a fake that drifts from the contract fails the test, with the reason.
 */

/** A recorded request. */
export interface FakeRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** Path and query, as the console asked for it. */
  url: string;
  query: URLSearchParams;
  /** The parsed JSON body (for GraphQL: `{ query, variables, operationName }`), a form's fields, the raw text, or null. */
  body: unknown;
  /** The body as sent: JSON text, or a form URL-encoded; null without a body. */
  text: string | null;
  /** The request's headers, lower-cased names. */
  headers: Record<string, string>;
  /** The GraphQL operation's name, for POST /graphql. */
  operation: string | null;
  /** The root field the GraphQL operation asks for (e.g. getOrganisationById). */
  field: string | null;
  variables: Record<string, unknown>;
}

/**
 * What a handler answers: a status (200 when only a body is given) and a body. A GraphQL body is either the
 * whole envelope (`{ data }`, `{ errors }`) or the root field's value alone. A string body is sent as text.
 */
export type FakeAnswer = { status?: number; body?: unknown };
export type FakeHandler = FakeAnswer | ((request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>);

/** GraphQL answers for errors: `{ errors: [{ message, extensions: { code } }] }`. */
export function graphqlError(message: string, code: string, status = 200): FakeAnswer {
  return { status, body: { data: null, errors: [{ message, extensions: { code } }] } };
}

const isEnvelope = (body: unknown) =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length > 0 && Object.keys(body).every((k) => k === 'data' || k === 'errors');

/** The first field of the operation's selection: `query x($id: ID!) { getOrganisationById(…) { … } }`. */
function rootFieldOf(query: string): string | null {
  const body = query.slice(query.indexOf('{') + 1);
  return /^\s*([_A-Za-z][_0-9A-Za-z]*)/.exec(body)?.[1] ?? null;
}

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return body instanceof URLSearchParams ? Object.fromEntries(body) : null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

/** A route whose path has `:name` segments ('GET /api/users/v2/providers/:email') matching the request. */
function patternRoute(routes: Record<string, FakeHandler>, method: string, path: string): FakeHandler | undefined {
  const segments = path.split('/');
  for (const [key, handler] of Object.entries(routes)) {
    const [keyMethod, pattern = ''] = key.split(' ');
    const parts = pattern.split('/');
    if (keyMethod === method && parts.length === segments.length && parts.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i]))) {
      return handler;
    }
  }
  return undefined;
}

/** Why the answer breaks its call's contract; empty when it keeps it. */
function answerProblems(request: FakeRequest, status: number, body: unknown): string[] {
  if (request.path.endsWith('/graphql')) {
    if (!isEnvelope(body)) return ['not a GraphQL answer ({ data } or { errors })'];
    const { data, errors } = body as { data?: unknown; errors?: unknown };
    const problems = errors === undefined || (Array.isArray(errors) && errors.every((e) => typeof (e as { message?: unknown })?.message === 'string'))
      ? []
      : ['errors: each needs a message'];
    if (data === null || data === undefined) return problems;
    const field = request.field as GraphqlContractField | null;
    const schema = field ? graphqlContracts[field] : undefined;
    if (!schema) return [...problems, `no contract for the GraphQL field ${field ?? '(none)'} in @quire/core graphqlContracts`];
    const value = (data as Record<string, unknown>)[field!];
    return [...problems, ...contractProblems(schema, value, { selection: true }, field!)];
  }
  if (status >= 400) return body === undefined || typeof body === 'string' ? [] : contractProblems(errorBodySchema, body);
  if (body === undefined || status === 204 || typeof body === 'string') return [];
  const contract = restContractFor(request.method, request.path);
  if (!contract) return [`no contract for ${request.method} ${request.path} in @quire/core restContracts`];
  return contractProblems(contract.schema, body);
}

/**
 * Replaces fetch with a router: keys are 'GET /api/t-1' (the exact path, or a pattern with `:name`
 * segments; the query is ignored) or 'gql getAdmins' (the operation's name). Unknown requests answer 404, so a test sees them fail. An answer
 * that breaks its contract is answered 500 and fails the test when it ends.
 */
export function fakeFetch(routes: Record<string, FakeHandler>) {
  const requests: FakeRequest[] = [];
  const violations: string[] = [];
  onTestFinished(() => {
    if (violations.length > 0) throw new Error(`The test's fake answers break their contracts:\n${violations.join('\n')}`);
  });
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, 'http://console.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = parseBody(init?.body);
    const gql = url.pathname.endsWith('/graphql') && body && typeof body === 'object' ? (body as { query?: string; operationName?: string; variables?: Record<string, unknown> }) : null;
    const headers = Object.fromEntries([...new Headers(init?.headers).entries()]);
    const request: FakeRequest = {
      method,
      path: url.pathname,
      url: `${url.pathname}${url.search}`,
      query: url.searchParams,
      body,
      text: typeof init?.body === 'string' || init?.body instanceof URLSearchParams ? String(init.body) : null,
      headers,
      operation: gql?.operationName ?? null,
      field: gql?.query ? rootFieldOf(gql.query) : null,
      variables: gql?.variables ?? {},
    };
    requests.push(request);
    const handler = gql ? routes[`gql ${request.operation ?? ''}`] : (routes[`${method} ${url.pathname}`] ?? patternRoute(routes, method, url.pathname));
    const answer: FakeAnswer = handler
      ? typeof handler === 'function'
        ? await handler(request)
        : handler
      : { status: 404, body: { code: 'not_found', message: 'Not found' } };
    const status = answer.status ?? 200;
    const sent = gql && status < 400 && !isEnvelope(answer.body) && request.field ? { data: { [request.field]: answer.body } } : answer.body;
    const problems = answerProblems(request, status, sent);
    if (problems.length > 0) {
      violations.push(...problems.map((p) => `${gql ? `gql ${request.operation}` : `${method} ${url.pathname}`}: ${p}`));
      return new Response(JSON.stringify({ code: 'contract_violation', message: problems.join('; ') }), { status: 500, headers: { 'content-type': 'application/json' } });
    }
    if (typeof sent === 'string') return new Response(sent, { status, headers: { 'content-type': 'text/plain' } });
    return new Response(sent === undefined ? null : JSON.stringify(sent), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    fetchMock,
    /** The contract breaks found so far; the test fails at its end unless it empties this list (the fake's own tests do). */
    violations,
    /** Requests to one path with one method. */
    find: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    /** Requests of one route key ('GET /path') or GraphQL operation name. */
    callsTo: (key: string) => requests.filter((r) => r.operation === key || `${r.method} ${r.path}` === key),
  };
}

/** The answer of useOrgAccess's query (`gql getOrganisationAccess`): the signed-in user's access, as the server decides it. */
export function orgAccess(level: 'admin' | 'library-manager', orgId = 'org-1'): FakeHandler {
  return { body: { id: orgId, access: level } };
}
