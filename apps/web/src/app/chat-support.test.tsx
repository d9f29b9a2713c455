import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../test/fake-fetch.js';
import { buildSession, createTestQueryClient, TestProviders, testConsoleConfig } from '../test/render.js';
import { ChatSupport } from './chat-support.js';

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.Intercom;
  document.querySelectorAll('script[data-chat-support]').forEach((s) => s.remove());
});

describe('ChatSupport', () => {
  it('does nothing without a provider: no script and no request', async () => {
    const fake = fakeFetch({});
    render(<TestProviders><ChatSupport /></TestProviders>);
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.requests).toHaveLength(0);
    expect(document.querySelector('script[data-chat-support]')).toBeNull();
    expect(window.Intercom).toBeUndefined();
  });

  it('boots with the identity hash and the organisation, updates on a switch, shuts down on sign-out', async () => {
    fakeFetch({ 'GET /api/users/v2/user-1/intercom/identity-verification': () => ({ body: 'hash-1' }) });
    const queryClient = createTestQueryClient({ ...testConsoleConfig, chatSupportProvider: 'intercom', chatSupportAppId: 'app1', chatSupportScriptUrl: 'https://widget.intercom.io/widget/app1' });
    const session = buildSession();
    const view = render(<TestProviders session={session} queryClient={queryClient}><ChatSupport /></TestProviders>);
    await waitFor(() => expect(window.Intercom?.q).toHaveLength(1));
    const [command, payload] = window.Intercom!.q![0] as [string, Record<string, unknown>];
    expect(command).toBe('boot');
    expect(payload).toMatchObject({ app_id: 'app1', user_id: 'user-1', email: 'ada@school.test', user_hash: 'hash-1', company: { id: 'org-1', name: 'Hillside School' } });
    expect(document.querySelector('script[data-chat-support]')?.getAttribute('src')).toBe('https://widget.intercom.io/widget/app1');

    // The widget script has loaded and replaced the stub.
    const calls: unknown[][] = [];
    window.Intercom = ((...args: unknown[]) => void calls.push(args)) as typeof window.Intercom;
    const other = { id: 'org-2', name: 'Riverside', features: { orgLibraries: false, studentPortfolios: false, visitLibraries: false } };
    view.rerender(<TestProviders session={{ ...session, currentOrganisation: other }} queryClient={queryClient}><ChatSupport /></TestProviders>);
    await waitFor(() => expect(calls).toEqual([['update', { company: { id: 'org-2', name: 'Riverside' } }]]));
    view.rerender(<TestProviders session={{ ...session, status: 'signed-out', user: null, currentOrganisation: null }} queryClient={queryClient}><ChatSupport /></TestProviders>);
    await waitFor(() => expect(calls.map((c) => c[0])).toEqual(['update', 'shutdown']));
  });
});
