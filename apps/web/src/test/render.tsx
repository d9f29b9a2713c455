import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { ConsoleConfig } from '@quire/core';
import { queryKeys } from '../lib/query-keys.js';
import { SessionContext, type SessionValue } from '../lib/session/session-context.js';
import { cssVariablesResolver, theme } from '../theme/theme.js';

/** A console configuration for tests (the server's defaults are not assumed). */
export const testConsoleConfig: ConsoleConfig = {
  productName: 'Quire',
  publicUrl: 'http://localhost:3000',
  providerEmailDomain: 'provider.test',
  salesEmail: 'sales@provider.test',
  helpUrl: 'https://help.provider.test/admins',
  communityUrl: 'https://community.provider.test',
  staffTrainingUrl: 'https://provider.test/staff-training',
  gettingStartedUrl: 'https://provider.test/getting-started',
  termsUrl: 'https://provider.test/terms',
  privacyUrl: 'https://provider.test/privacy',
  appUrl: 'https://app.provider.test',
  readerUrl: 'https://read.provider.test',
  readerLibraryId: 'featured-library',
  districtSsoDomains: ['district.test'],
  cityGovernmentSuffixes: ['.city.test'],
  chatSupportProvider: null,
  chatSupportAppId: null,
  chatSupportScriptUrl: null,
};

/** A signed-in session in an organisation with every feature off; override what a test needs. */
export function buildSession(overrides: Partial<SessionValue> = {}): SessionValue {
  return {
    status: 'signed-in',
    user: { uid: 'user-1', email: 'ada@school.test', displayName: 'Ada Lovelace', photoURL: null },
    organisations: [{ id: 'org-1', name: 'Hillside School' }],
    currentOrganisation: {
      id: 'org-1',
      name: 'Hillside School',
      features: { orgLibraries: false, studentPortfolios: false, visitLibraries: false },
    },
    selectOrganisation: vi.fn(),
    signOut: vi.fn(() => Promise.resolve()),
    ...overrides,
  };
}

export function createTestQueryClient(config: ConsoleConfig = testConsoleConfig): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  client.setQueryData(queryKeys.consoleConfig, config);
  return client;
}

export interface RenderOptions {
  session?: SessionValue;
  queryClient?: QueryClient;
}

/** Theme (test env: no transitions, no portals), notifications, query cache with the config, and a session. */
export function TestProviders({ session, queryClient, children }: RenderOptions & { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient ?? createTestQueryClient()}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
        <Notifications />
        <SessionContext.Provider value={session ?? buildSession()}>{children}</SessionContext.Provider>
      </MantineProvider>
    </QueryClientProvider>
  );
}

/** Renders routes in a memory router at `path` inside TestProviders; returns the router too. */
export function renderRoutes(routes: RouteObject[], path: string, options: RenderOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result: RenderResult = render(
    <TestProviders {...options}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { ...result, router };
}

/** Renders one element at `path` (the element is the route's whole tree). */
export function renderAt(element: ReactNode, path = '/', options: RenderOptions = {}) {
  return renderRoutes([{ path: '*', element }], path, options);
}
