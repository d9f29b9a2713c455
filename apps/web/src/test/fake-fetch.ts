import { vi } from 'vitest';

/** A recorded request: method, path (without the query), the query, and the parsed JSON body. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The GraphQL operation's name, for POST /graphql. */
  operation: string | null;
  variables: Record<string, unknown>;
  /** The request's headers, names lower-cased. */
  headers: Record<string, string>;
}

/** What a handler answers: a status and a JSON body (200 when only a body is given). */
export type FakeAnswer = { status: number; body?: unknown } | { body: unknown };
export type FakeHandler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/** GraphQL answers for errors: `{ errors: [{ message, extensions: { code } }] }`. */
export function graphqlError(message: string, code: string, status = 200): FakeAnswer {
  return { status, body: { data: null, errors: [{ message, extensions: { code } }] } };
}

/**
 * Replaces fetch with a router: keys are 'GET /api/t-1' (exact path) or 'gql getAdmins' (operation
 * name). Unknown requests answer 404 so a test sees them fail. Returns the log of requests.
 */
export function fakeFetch(routes: Record<string, FakeHandler>) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://console.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    let body: unknown = null;
    if (typeof init?.body === 'string') {
      try {
        body = JSON.parse(init.body) as unknown;
      } catch {
        body = init.body;
      }
    }
    const gql = url.pathname === '/graphql' && body && typeof body === 'object' ? (body as { operationName?: string; variables?: Record<string, unknown> }) : null;
    const request: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body,
      operation: gql?.operationName ?? null,
      variables: gql?.variables ?? {},
      headers: Object.fromEntries([...new Headers(init?.headers).entries()]),
    };
    requests.push(request);
    const handler = gql ? routes[`gql ${request.operation ?? ''}`] : routes[`${method} ${url.pathname}`];
    const answer: FakeAnswer = handler ? await handler(request) : { status: 404, body: { code: 'not_found', message: 'Not found' } };
    const status = 'status' in answer ? answer.status : 200;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock, find: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path) };
}
