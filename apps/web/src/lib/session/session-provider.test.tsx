import { act, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adaIdentity, fakeBackend } from '../../test/fake-session.js';
import { createTestQueryClient, testConsoleConfig } from '../../test/render.js';
import { queryKeys } from '../query-keys.js';
import { ApiError } from '../api/api-error.js';
import { getActingUserId } from './acting-user.js';
import { useSession, type SessionValue } from './session-context.js';
import { SessionProvider, useSessionControls, type SessionControls } from './session-provider.js';
import type { SessionBackend } from './session-backend.js';

let latest: SessionValue | null = null;
let latestControls: SessionControls | null = null;
function Probe() {
  latest = useSession();
  latestControls = useSessionControls();
  return <p data-testid="status">{`${latest.status} ${latest.currentOrganisation?.id ?? '-'}`}</p>;
}

function renderSession(backend: SessionBackend) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(['teachers', 'org-1'], ['someone']);
  render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider backend={backend}>
        <Probe />
      </SessionProvider>
    </QueryClientProvider>,
  );
  return queryClient;
}

const signedIn = () => fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity) });

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  latest = null;
  latestControls = null;
  // Back on the page (as from the back/forward cache): the next test's page is not being left.
  window.dispatchEvent(new Event('pageshow'));
});

describe('SessionProvider', () => {
  it('restores a session, sets the acting user, and selects a single organisation', async () => {
    renderSession(signedIn());
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1'));
    expect(getActingUserId()).toBe('user-1');
    expect(localStorage.getItem('BC_ORG')).toBe('org-1');
    expect(latest?.currentOrganisation?.features).toEqual({ orgLibraries: false, studentPortfolios: false, visitLibraries: false });
  });

  it('signs out: server, BC_ORG, query cache (but not the configuration), acting user', async () => {
    const backend = signedIn();
    const queryClient = renderSession(backend);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1'));
    await act(() => latest!.signOut());
    expect(backend.signOut).toHaveBeenCalled();
    expect(screen.getByTestId('status')).toHaveTextContent('signed-out -');
    expect(localStorage.getItem('BC_ORG')).toBeNull();
    expect(queryClient.getQueryData(['teachers', 'org-1'])).toBeUndefined();
    expect(queryClient.getQueryData(queryKeys.consoleConfig)).toEqual(testConsoleConfig);
    expect(getActingUserId()).toBeNull();
  });

  it('still signs out in the browser when the server cannot be reached', async () => {
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), signOut: vi.fn().mockRejectedValue(new Error('offline')) });
    renderSession(backend);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in'));
    await act(() => latest!.signOut());
    expect(screen.getByTestId('status')).toHaveTextContent('signed-out');
  });

  it('signs out with the spec\'s message when the organisation lookup after sign-in fails', async () => {
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), getOrganisations: vi.fn().mockRejectedValue(new ApiError({ status: 500, code: 'internal_error', message: 'Something went wrong' })) });
    renderSession(backend);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-out'));
    expect(backend.signOut).toHaveBeenCalledOnce();
    expect(latestControls?.state.error?.message).toBe('Something went wrong logging you in, please try again.');
  });

  it('does not sign out when the lookup fails because the admin is leaving the page (a reload, a bookmark, a typed address)', async () => {
    let fail: (error: Error) => void = () => undefined;
    const getOrganisations = vi
      .fn()
      .mockImplementationOnce(() => new Promise<never>((_, reject) => (fail = reject)))
      .mockResolvedValue([{ id: 'org-1', name: 'Hillside School' }]);
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), getOrganisations });
    renderSession(backend);
    await waitFor(() => expect(getOrganisations).toHaveBeenCalled());
    // The browser says the page is going (pagehide), then cancels its requests: the lookup fails with a network error.
    window.dispatchEvent(new Event('pagehide'));
    await act(async () => {
      fail(new TypeError('Failed to fetch'));
      // The provider decides once the page's events of this moment have run (lib/page-leaving.ts).
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(backend.signOut).not.toHaveBeenCalled();
    expect(screen.getByTestId('status')).toHaveTextContent('signed-in');
    // Should the page come back (the back/forward cache), it asks again, and the admin is in.
    await act(async () => window.dispatchEvent(new Event('pageshow')));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1'));
    expect(getOrganisations).toHaveBeenCalledTimes(2);
  });

  it('a 401 from any screen renews the session with the token refresh; when it has ended, signs out keeping the page', async () => {
    const refreshToken = vi.fn().mockResolvedValueOnce(true).mockResolvedValue(false);
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), refreshToken });
    const queryClient = renderSession(backend);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1'));
    const unauthorised = () => Promise.reject(new ApiError({ status: 401, code: 'unauthorised', message: 'You need to sign in' }));
    // The first 401: the refresh renews the session, the admin stays signed in.
    await act(() => queryClient.fetchQuery({ queryKey: ['one'], queryFn: unauthorised }).catch(() => undefined));
    await waitFor(() => expect(refreshToken).toHaveBeenCalledTimes(1));
    expect(screen.getByTestId('status')).toHaveTextContent('signed-in');
    // The second: the session has ended for good — signed out, not by the user, so the page is remembered.
    await act(() => queryClient.fetchQuery({ queryKey: ['two'], queryFn: unauthorised }).catch(() => undefined));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-out'));
    expect(refreshToken).toHaveBeenCalledTimes(2);
  });

  it('refreshes the token every 2,700,000 ms, each time followed by the re-auth log', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const backend = signedIn();
    renderSession(backend);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1'));
    await act(() => vi.advanceTimersByTimeAsync(2_699_000));
    expect(backend.refreshToken).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(backend.refreshToken).toHaveBeenCalledTimes(1);
    expect(backend.logReauth).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(2_700_000));
    expect(backend.logReauth).toHaveBeenCalledTimes(2);
  });

  it('refreshes when the tab becomes visible without a session cookie, and signs out when it cannot', async () => {
    const getSession = vi.fn().mockResolvedValue(adaIdentity);
    const backend = fakeBackend({ getSession, refreshToken: vi.fn().mockResolvedValue(false) });
    renderSession(backend);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1'));
    // Cookie still there: nothing to do.
    await act(async () => document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(getSession).toHaveBeenCalledTimes(2));
    expect(backend.refreshToken).not.toHaveBeenCalled();
    // Cookie gone (the probe finds no session): refresh, which fails, so the user is signed out.
    getSession.mockResolvedValue(null);
    await act(async () => document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-out'));
    expect(backend.refreshToken).toHaveBeenCalledTimes(1);
    expect(backend.logReauth).not.toHaveBeenCalled();
  });

  it('keeps the session when a refresh fails for lack of network', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const backend = fakeBackend({ getSession: vi.fn().mockResolvedValue(adaIdentity), refreshToken: vi.fn().mockRejectedValue(new Error('offline')) });
    renderSession(backend);
    await waitFor(() => expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1'));
    await act(() => vi.advanceTimersByTimeAsync(2_700_000));
    expect(backend.refreshToken).toHaveBeenCalled();
    expect(screen.getByTestId('status')).toHaveTextContent('signed-in org-1');
  });
});
