import { vi } from 'vitest';
import type { OrganisationLicense } from '@quire/core';
import type { Member } from '../api/teacher-schemas.js';

/** A recorded call to the fake services. */
export interface FakeCall {
  method: string;
  url: string;
  body: unknown;
  /** GraphQL operation name, for POST /graphql. */
  operation: string | null;
  /** The request's headers, lower-cased names. */
  headers: Record<string, string>;
}

type Answer = { status?: number; body: unknown } | ((call: FakeCall) => { status?: number; body: unknown });

/**
 * Replaces fetch with a small router: REST answers by "METHOD path-prefix", GraphQL answers by
 * operation name. Unknown calls answer 404, so a test never talks to a real network.
 */
export function fakeApi(routes: Record<string, Answer>) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
    const operation = url.startsWith('/graphql') ? ((body as { operationName?: string } | null)?.operationName ?? null) : null;
    const headers = Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const call: FakeCall = { method, url, body, operation, headers };
    calls.push(call);
    const key = operation ?? Object.keys(routes).find((k) => `${method} ${url}`.startsWith(k));
    const route = key ? routes[key] : undefined;
    const answer = typeof route === 'function' ? route(call) : (route ?? { status: 404, body: { code: 'not_found', message: 'Not found' } });
    const payload = operation && (answer.status ?? 200) < 400 && !isGraphqlEnvelope(answer.body) ? { data: { [operation]: answer.body } } : answer.body;
    return new Response(JSON.stringify(payload), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (operationOrPrefix: string) => calls.filter((c) => c.operation === operationOrPrefix || `${c.method} ${c.url}`.startsWith(operationOrPrefix)) };
}

function isGraphqlEnvelope(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Object.keys(body).every((k) => k === 'data' || k === 'errors');
}

export function buildLicense(overrides: Partial<OrganisationLicense> = {}): OrganisationLicense {
  return { id: 'lic-std', name: 'Standard', allocated: 3, quantity: 5, bookQuota: 40, libraryQuota: 5, applyToAll: false, ...overrides };
}

let counter = 0;
export function buildMember(overrides: Partial<Member> = {}): Member {
  counter += 1;
  return {
    id: `m-${counter}`,
    userId: `u-${counter}`,
    email: `teacher${counter}@school.test`,
    displayName: `Teacher ${counter}`,
    role: 600,
    license: null,
    pending: false,
    badges: { calevel1: null, calevel2: null },
    certifying: null,
    isAmbassador: false,
    isStudent: false,
    revokedAt: null,
    signedUpAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}
