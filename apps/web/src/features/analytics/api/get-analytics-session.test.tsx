import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../../../test/fake-fetch.js';
import { freshAnalyticsSession, renewAfterMs, useAnalyticsSession } from './get-analytics-session.js';

let issued = 0;
let server: ReturnType<typeof fakeFetch>;
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  issued = 0;
  server = fakeFetch({
    'GET /analytics/sessions/app/organisations/org-1': () => {
    issued++;
    const body = {
      refreshIn: 3600,
      usersOrganisation: { id: 'org-1', name: 'Hillside' },
      signedQuery: `expires=${issued}&signature=s${issued}`,
      urls: {
        studentsCount: '/analytics/users/organisations/org-1/students/count?expires=1&signature=s',
        librariesCount: '', booksCount: '', booksCountPeriodic: '', breakdown: '',
        data: Object.fromEntries(['sessions', 'sessions-duration', 'sessions-by-os', 'sessions-by-provider', 'email-domains'].map((m) => [m, { total: '', daily: '', weekly: '', monthly: '' }])),
      },
    };
    return { body };
    },
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function wrapper(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

describe('the analytics session', () => {
  it('renews a minute or more before the signed URLs expire', () => {
    expect(renewAfterMs({ refreshIn: 3600 })).toBe(2_700_000);
    expect(renewAfterMs({ refreshIn: 120 })).toBe(60_000);
    expect(renewAfterMs({ refreshIn: 60 })).toBe(45_000);
  });

  it('is renewed on a timer, so a page left open for hours always holds URLs that have not expired', async () => {
    const client = new QueryClient();
    const { result } = renderHook(() => useAnalyticsSession('org-1'), { wrapper: wrapper(client) });
    await waitFor(() => expect(result.current.data?.signedQuery).toBe('expires=1&signature=s1'));
    for (let hour = 1; hour <= 3; hour++) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(45 * 60_000 + 1000);
      });
      await waitFor(() => expect(issued).toBeGreaterThanOrEqual(hour + 1));
    }
    expect(result.current.data?.signedQuery).toBe(`expires=${issued}&signature=s${issued}`);
    expect(server.requests[0]?.url).toBe('/analytics/sessions/app/organisations/org-1');
  });

  it('gives data requests a fresh session when the cached one is past its renewal time (a sleeping tab)', async () => {
    const client = new QueryClient();
    expect((await freshAnalyticsSession(client, 'org-1')).signedQuery).toBe('expires=1&signature=s1');
    expect((await freshAnalyticsSession(client, 'org-1')).signedQuery).toBe('expires=1&signature=s1');
    vi.setSystemTime(Date.now() + 46 * 60_000);
    expect((await freshAnalyticsSession(client, 'org-1')).signedQuery).toBe('expires=2&signature=s2');
  });
});
