import { afterEach, describe, expect, it, vi } from 'vitest';
import { contractProblems, membersPageSchema } from '@quire/core';
import { fakeFetch } from './fake-fetch.js';
import { buildMember } from './fixtures.js';

afterEach(() => vi.unstubAllGlobals());

describe('the test fake checks every answer against its contract', () => {
  it('names a missing field, a field the contract does not have, and a wrong type', () => {
    const { signedUpAt: _signedUpAt, ...withoutSignedUp } = buildMember();
    expect(contractProblems(membersPageSchema, { members: [{ ...withoutSignedUp, nickname: 'Al', role: '600' }], total: 1 })).toEqual([
      '$.members[0].nickname: not in the contract',
      '$.members[0].role: Invalid input: expected number, received string',
      '$.members[0].signedUpAt: missing',
    ]);
    expect(contractProblems(membersPageSchema, { members: [buildMember()], total: 1 })).toEqual([]);
  });

  it('answers a drifted REST fake with 500 and records why', async () => {
    const server = fakeFetch({ 'GET /api/m-1/owned': { body: { unarchived: [{ id: 'l1', name: 'Old shape' }] } } });
    const response = await fetch('/api/m-1/owned?organisationId=org-1');
    expect(response.status).toBe(500);
    expect(server.violations.join('\n')).toContain('GET /api/m-1/owned: $.unarchived[0].bookCount: missing');
    server.violations.splice(0);
  });

  it('checks a GraphQL answer as a selection: fields may be left out, none may be invented', async () => {
    const server = fakeFetch({
      'gql getOrganisationById': { body: { id: 'org-1', name: 'Hillside' } },
      'gql getAdmins': { body: { admins: [], total: 0, page: 1, pageSize: 10, extra: true } },
    });
    const ask = (operation: string, field: string) =>
      fetch('/graphql', { method: 'POST', body: JSON.stringify({ query: `query ${operation} { ${field}(id: "x") { id } }`, operationName: operation }) });
    expect((await ask('getOrganisationById', 'getOrganisationById')).status).toBe(200);
    expect((await ask('getAdmins', 'getAdmins')).status).toBe(500);
    expect(server.violations).toEqual(['gql getAdmins: getAdmins.extra: not in the contract']);
    server.violations.splice(0);
  });

  it('refuses to answer a route that has no contract in @quire/core', async () => {
    const server = fakeFetch({ 'GET /api/not-a-contract/x/y': { body: { anything: 1 } } });
    expect((await fetch('/api/not-a-contract/x/y')).status).toBe(500);
    expect(server.violations[0]).toContain('no contract for GET /api/not-a-contract/x/y');
    server.violations.splice(0);
  });
});
