import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleConfigQueryOptions } from '../lib/console-config.js';
import { queryKeys } from '../lib/query-keys.js';
import { setActingUserId } from '../lib/session/acting-user.js';
import { httpSessionBackend } from '../lib/session/http-session-backend.js';
import { fakeFetch } from '../test/fake-fetch.js';
import { testConsoleConfig } from '../test/render.js';
import type * as ContractModule from '../lib/api/contract.js';
import { startEarlyRequests } from './early-requests.js';

// Whether a page asks for zod's classic build and the other schemas at once (the contracts' chunk).
const preloadContracts = vi.hoisted(() => vi.fn());
vi.mock('../lib/api/contract.js', async (importOriginal) => ({ ...(await importOriginal<typeof ContractModule>()), preloadContracts }));

const user = { id: 'u1', email: 'ada@school.test', name: 'Ada Lovelace', image: null, emailVerified: true };
const methods = { google: false, office365: true, email: true };

const organisation = { id: 'org-1', name: 'Hillside School', features: { orgLibraries: true, studentPortfolios: false, visitLibraries: false } };

function serve(sessionUser: typeof user | null = user) {
  return fakeFetch({
    'GET /api/console-config': { body: testConsoleConfig },
    'GET /identity/get-session': { body: sessionUser ? { session: { id: 's1' }, user: sessionUser } : null },
    'GET /auth/methods': { body: methods },
    'gql getOrganisations': { body: [{ id: 'org-1', name: 'Hillside School' }] },
    'gql getOrganisationById': { body: organisation },
  });
}

const paths = (server: ReturnType<typeof serve>) => server.requests.map((r) => r.field ?? r.path);

afterEach(() => {
  vi.unstubAllGlobals();
  preloadContracts.mockClear();
  // The early questions set the acting user as the provider would; the next test starts signed out.
  setActingUserId(null);
});

describe('startEarlyRequests', () => {
  it('on /sign-in asks for the configuration, the session and the sign-in methods at once, before anything renders', async () => {
    const server = serve();
    const queryClient = new QueryClient();
    startEarlyRequests(queryClient, '/sign-in');
    // All three are on their way together: none waited for another's answer.
    expect(paths(server).sort()).toEqual(['/api/console-config', '/auth/methods', '/identity/get-session']);

    // The screens then get these answers instead of asking again.
    expect(await queryClient.fetchQuery(consoleConfigQueryOptions)).toEqual(testConsoleConfig);
    await vi.waitFor(() => expect(queryClient.getQueryData(queryKeys.signInMethods)).toEqual(methods));
    expect((await httpSessionBackend.getSession())?.user.email).toBe('ada@school.test');
    // A verified user's organisations are asked for as soon as the session answers; no page's organisation here.
    await vi.waitFor(() => expect(paths(server)).toContain('getOrganisations'));
    expect(await httpSessionBackend.getOrganisations()).toEqual([{ id: 'org-1', name: 'Hillside School' }]);
    expect(paths(server)).toHaveLength(4);

    // The early session answer is taken once: a later question asks the server again.
    await httpSessionBackend.getSession();
    expect(paths(server).filter((p) => p === '/identity/get-session')).toHaveLength(2);
  });

  it('on /sign-in leaves the contracts for later (its first answers use the small schemas); other pages ask for them at once', async () => {
    serve(null);
    startEarlyRequests(new QueryClient(), '/sign-in');
    expect(preloadContracts).not.toHaveBeenCalled();
    // Each early session answer taken, so the next test asks again.
    await httpSessionBackend.getSession();
    startEarlyRequests(new QueryClient(), '/org-1/teachers');
    expect(preloadContracts).toHaveBeenCalledOnce();
    await httpSessionBackend.getSession();
  });

  it("in an organisation's page asks for the session, then the user's organisations and that one, as the acting user", async () => {
    const server = serve();
    startEarlyRequests(new QueryClient(), '/org-1/teachers');
    expect(paths(server).sort()).toEqual(['/api/console-config', '/identity/get-session']);
    await vi.waitFor(() => expect(paths(server)).toHaveLength(4));
    expect(paths(server).slice(2).sort()).toEqual(['getOrganisationById', 'getOrganisations']);
    for (const request of server.requests.slice(2)) expect(request.headers['x-acting-user']).toBe('u1');
    expect(server.requests.find((r) => r.field === 'getOrganisationById')?.variables).toEqual({ id: 'org-1' });

    // The provider's and the guard's first calls take these answers; another organisation is asked for.
    await httpSessionBackend.getSession();
    await httpSessionBackend.getOrganisations();
    expect(await httpSessionBackend.getOrganisation('org-1')).toEqual(organisation);
    expect(paths(server)).toHaveLength(4);
    await httpSessionBackend.getOrganisation('org-2').catch(() => undefined);
    expect(paths(server)).toHaveLength(5);
  });

  it('asks for no organisation without a verified session', async () => {
    const server = serve({ ...user, emailVerified: false });
    startEarlyRequests(new QueryClient(), '/org-1/teachers');
    expect(await httpSessionBackend.getSession()).toMatchObject({ emailVerified: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(paths(server).sort()).toEqual(['/api/console-config', '/identity/get-session']);
  });
});
