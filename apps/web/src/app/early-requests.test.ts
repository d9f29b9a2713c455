import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleConfigQueryOptions } from '../lib/console-config.js';
import { queryKeys } from '../lib/query-keys.js';
import { httpSessionBackend } from '../lib/session/http-session-backend.js';
import { fakeFetch } from '../test/fake-fetch.js';
import { testConsoleConfig } from '../test/render.js';
import { startEarlyRequests } from './early-requests.js';

const user = { id: 'u1', email: 'ada@school.test', name: 'Ada Lovelace', image: null, emailVerified: true };
const methods = { google: false, office365: true, email: true };

function serve() {
  return fakeFetch({
    'GET /api/console-config': { body: testConsoleConfig },
    'GET /identity/get-session': { body: { session: { id: 's1' }, user } },
    'GET /auth/methods': { body: methods },
  });
}

const paths = (server: ReturnType<typeof serve>) => server.requests.map((r) => r.path);

afterEach(() => vi.unstubAllGlobals());

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
    expect(paths(server)).toHaveLength(3);

    // The early session answer is taken once: a later question asks the server again.
    await httpSessionBackend.getSession();
    expect(paths(server).filter((p) => p === '/identity/get-session')).toHaveLength(2);
  });

  it('elsewhere asks for the configuration and the session, not the sign-in methods', async () => {
    const server = serve();
    startEarlyRequests(new QueryClient(), '/org-1/teachers');
    expect(paths(server).sort()).toEqual(['/api/console-config', '/identity/get-session']);
    await httpSessionBackend.getSession();
    expect(paths(server)).toHaveLength(2);
  });
});
