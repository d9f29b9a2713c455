import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Core from '@quire/core';
import { adminsRemovedSchema, organisationSummarySchema, renamedOrganisationSchema } from '@quire/core';
import { z } from 'zod';
import { setActingUserId } from '../session/acting-user.js';
import { errorMessageOf } from '../notify.js';
import { shouldRetry } from '../query-client.js';
import { ApiError, INVALID_RESPONSE } from './api-error.js';
import { GraphqlError, graphqlRequest, operationNameOf } from './graphql-client.js';
import { lazyContract } from './contract.js';
import { apiRequest } from './rest-client.js';
import { userFacingMessage } from './user-facing.js';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function lastCall(): { url: string; init: RequestInit; headers: Record<string, string> } {
  const [url, init = {}] = fetchMock.mock.calls.at(-1) ?? [];
  return { url: String(url), init, headers: (init.headers ?? {}) as Record<string, string> };
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  setActingUserId(null);
  vi.unstubAllGlobals();
});

describe('lazy contracts (lib/api/contract.ts)', () => {
  it('parses with the schema loaded on first use, and refuses an answer that breaks it', async () => {
    const pick = vi.fn((core: typeof Core) => core.organisationSummarySchema.array());
    const contract = lazyContract(pick);
    const summary = { id: 'o1', name: 'District', access: 'admin' };
    fetchMock.mockResolvedValueOnce(jsonResponse({ data: { getOrganisations: [summary] } }));
    const parsed = await graphqlRequest({ query: 'query getOrganisations { getOrganisations { id } }', field: 'getOrganisations', schema: contract });
    expect(parsed).toEqual(organisationSummarySchema.array().parse([summary]));

    fetchMock.mockResolvedValueOnce(jsonResponse([{ id: 42 }]));
    const refused = await apiRequest('/api/x', { schema: contract }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(INVALID_RESPONSE);
    // Loaded once, shared by later requests.
    expect(pick).toHaveBeenCalledTimes(1);
  });
});

describe('apiRequest', () => {
  it('sends cookies, JSON and the acting user, and returns the parsed answer', async () => {
    setActingUserId('user-42');
    fetchMock.mockResolvedValueOnce(jsonResponse({ owned: 3, private: 1, total: 4 }));
    const counts = await apiRequest('/payments/v1/x', {
      method: 'PUT',
      json: ['m1', 'm2'],
      schema: z.object({ owned: z.number(), private: z.number(), total: z.number() }),
    });
    expect(counts).toEqual({ owned: 3, private: 1, total: 4 });
    const { url, init, headers } = lastCall();
    expect(url).toBe('/payments/v1/x');
    expect(init.method).toBe('PUT');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe('["m1","m2"]');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['x-acting-user']).toBe('user-42');
  });

  it('leaves the acting-user header out when nobody is signed in', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse([]));
    await apiRequest('/api/users/v2/providers/a%40b.test');
    expect(lastCall().headers).not.toHaveProperty('x-acting-user');
    expect(lastCall().init.method).toBe('GET');
  });

  it('sends forms URL-encoded and adds query strings without empty values', async () => {
    fetchMock.mockResolvedValueOnce(new Response('tok', { status: 200, headers: { 'content-type': 'text/plain' } }));
    const token = await apiRequest<string>('/auth/email', {
      form: { email: 'a@b.test', password: 'secret1', isTeacher: true, displayName: undefined },
      query: { width: 250, retry: null },
      responseType: 'text',
    });
    expect(token).toBe('tok');
    const { url, init, headers } = lastCall();
    expect(url).toBe('/auth/email?width=250');
    expect(init.method).toBe('POST');
    expect(headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(String(init.body)).toBe('email=a%40b.test&password=secret1&isTeacher=true');
  });

  it('throws an ApiError with the server’s status, code, message and body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'FORBIDDEN', message: 'Your account cannot perform this action' }, 403));
    const error = await apiRequest('/payments/v1/import').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
      message: 'Your account cannot perform this action',
      body: { code: 'FORBIDDEN', message: 'Your account cannot perform this action' },
    });
  });

  it('keeps a non-JSON error body and names the status', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 425, statusText: 'Too Early' }));
    await expect(apiRequest('/rest/org/student-portfolios-export/1')).rejects.toMatchObject({ status: 425, code: 'HTTP_425', message: 'Too Early' });
  });

  it('turns a network failure into status 0', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(apiRequest('/api/x')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});

describe('graphqlRequest', () => {
  const query = 'query getOrganisations { getOrganisations { id name } }';
  const organisations = z.array(organisationSummarySchema);

  it('posts the operation with cookies and the acting user, and returns data', async () => {
    setActingUserId('user-7');
    fetchMock.mockResolvedValueOnce(jsonResponse({ data: { getOrganisations: [{ id: 'o1', name: 'A' }] } }));
    const data = await graphqlRequest({ query, field: 'getOrganisations', schema: organisations });
    expect(data).toEqual([{ id: 'o1', name: 'A' }]);
    const { url, init, headers } = lastCall();
    expect(url).toBe('/graphql');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(headers['x-acting-user']).toBe('user-7');
    expect(JSON.parse(String(init.body))).toMatchObject({ query, operationName: 'getOrganisations', variables: {} });
  });

  it('joins GraphQL errors with newlines', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ data: null, errors: [{ message: 'First problem' }, { message: 'Second problem', extensions: { code: 'FORBIDDEN' } }] }),
    );
    const error = await graphqlRequest({
      query: 'mutation renameOrganisation { renameOrganisation(orgId: "o", name: "n") }',
      field: 'renameOrganisation',
      schema: renamedOrganisationSchema,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphqlError);
    expect((error as GraphqlError).message).toBe('First problem\nSecond problem');
    expect((error as GraphqlError).code).toBe('FORBIDDEN');
  });

  it('falls back to the operation’s generic message when there are no errors to show', async () => {
    fetchMock.mockResolvedValueOnce(new Response('Bad gateway', { status: 502 }));
    await expect(graphqlRequest({ query: 'mutation deleteAdmins { deleteAdmins(orgId: "o", emails: []) }', field: 'deleteAdmins', schema: adminsRemovedSchema })).rejects.toThrow(
      'Something went wrong with the operation deleteAdmins',
    );
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(graphqlRequest({ query, field: 'getOrganisations', schema: organisations })).rejects.toThrow('Something went wrong with the operation getOrganisations');
  });

  it('reads the operation name from the document', () => {
    expect(operationNameOf('mutation importAdmins($orgId: ID!) { importAdmins(orgId: $orgId) }')).toBe('importAdmins');
    expect(operationNameOf('{ getOrganisations { id } }')).toBeNull();
  });
});

describe('an answer that breaks its contract', () => {
  it('REST: is an ApiError invalid_response whose parser text is never shown to a person', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ owned: 'three' }));
    const error = await apiRequest('/payments/v1/x', { schema: z.object({ owned: z.number() }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: INVALID_RESPONSE });
    expect(userFacingMessage(error)).toBeNull();
    expect(errorMessageOf(error, 'The screen’s own text')).toBe('The screen’s own text');
  });

  it('GraphQL: is a GraphqlError with the operation’s generic text (spec §8), not the parser’s', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ data: { getOrganisations: [{ id: 1 }] } }));
    const error = await graphqlRequest({ query: 'query getOrganisations { getOrganisations { id name } }', field: 'getOrganisations', schema: z.array(organisationSummarySchema) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GraphqlError);
    expect(errorMessageOf(error, 'fallback')).toBe('Something went wrong with the operation getOrganisations');
  });

  it('a plain Error (a ZodError, a TypeError) never becomes user-facing text', () => {
    expect(errorMessageOf(new TypeError('x is undefined'), 'fallback')).toBe('fallback');
    expect(errorMessageOf(z.object({ a: z.string() }).safeParse({}).error, 'fallback')).toBe('fallback');
  });
});

describe('retries', () => {
  it('are never made for a refusal (4xx, a GraphQL answer with errors, a broken contract), only for network failures and 5xx', () => {
    expect(shouldRetry(0, new ApiError({ status: 404, code: 'not_found', message: 'x' }))).toBe(false);
    expect(shouldRetry(0, new ApiError({ status: 200, code: INVALID_RESPONSE, message: 'x' }))).toBe(false);
    expect(shouldRetry(0, new GraphqlError('getAdmins', 200, [{ message: 'no', extensions: { code: 'admin_required', statusCode: 403 } }]))).toBe(false);
    expect(shouldRetry(0, new GraphqlError('getAdmins', 401, []))).toBe(false);
    expect(shouldRetry(0, new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'x' }))).toBe(true);
    expect(shouldRetry(0, new ApiError({ status: 503, code: 'HTTP_503', message: 'x' }))).toBe(true);
    expect(shouldRetry(0, new GraphqlError('getAdmins', 200, [{ message: 'Something went wrong', extensions: { code: 'internal_error', statusCode: 500 } }]))).toBe(true);
    expect(shouldRetry(2, new ApiError({ status: 503, code: 'HTTP_503', message: 'x' }))).toBe(false);
  });
});
