import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { setActingUserId } from '../session/acting-user.js';
import { ApiError } from './api-error.js';
import { GraphqlError, graphqlRequest, operationNameOf } from './graphql-client.js';
import { apiRequest } from './rest-client.js';

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
    expect(headers['X-Acting-User']).toBe('user-42');
  });

  it('leaves the acting-user header out when nobody is signed in', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse([]));
    await apiRequest('/api/users/v2/providers/a%40b.test');
    expect(lastCall().headers).not.toHaveProperty('X-Acting-User');
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

  it('posts the operation with cookies and the acting user, and returns data', async () => {
    setActingUserId('user-7');
    fetchMock.mockResolvedValueOnce(jsonResponse({ data: { getOrganisations: [{ id: 'o1', name: 'A' }] } }));
    const data = await graphqlRequest<{ getOrganisations: Array<{ id: string; name: string }> }>({ query });
    expect(data.getOrganisations).toEqual([{ id: 'o1', name: 'A' }]);
    const { url, init, headers } = lastCall();
    expect(url).toBe('/graphql');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(headers['X-Acting-User']).toBe('user-7');
    expect(JSON.parse(String(init.body))).toMatchObject({ query, operationName: 'getOrganisations', variables: {} });
  });

  it('joins GraphQL errors with newlines', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ data: null, errors: [{ message: 'First problem' }, { message: 'Second problem', extensions: { code: 'FORBIDDEN' } }] }),
    );
    const error = await graphqlRequest({ query: 'mutation renameOrganisation { renameOrganisation(orgId: "o", name: "n") }' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphqlError);
    expect((error as GraphqlError).message).toBe('First problem\nSecond problem');
    expect((error as GraphqlError).code).toBe('FORBIDDEN');
  });

  it('falls back to the operation’s generic message when there are no errors to show', async () => {
    fetchMock.mockResolvedValueOnce(new Response('Bad gateway', { status: 502 }));
    await expect(graphqlRequest({ query: 'mutation deleteAdmins { deleteAdmins(orgId: "o", emails: []) }' })).rejects.toThrow(
      'Something went wrong with the operation deleteAdmins',
    );
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(graphqlRequest({ query })).rejects.toThrow('Something went wrong with the operation getOrganisations');
  });

  it('reads the operation name from the document', () => {
    expect(operationNameOf('mutation importAdmins($orgId: ID!) { importAdmins(orgId: $orgId) }')).toBe('importAdmins');
    expect(operationNameOf('{ getOrganisations { id } }')).toBeNull();
  });
});
