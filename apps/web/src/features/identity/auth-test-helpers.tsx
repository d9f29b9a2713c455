import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, Outlet as RouterOutlet, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { SessionProvider } from '../../lib/session/index.js';
import type { SessionBackend } from '../../lib/session/session-backend.js';
import { createTestQueryClient, TestProviders } from '../../test/render.js';
import { signInRoutes } from './auth.routes.js';
import { RequireSession } from './components/require-session.js';

/** Shows the current path, so tests can assert where a screen navigated to. */
function WhereAmI() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

function Console() {
  return <p>Console home</p>;
}

/** The sign-in area and a guarded console, with the real session provider over a fake backend. */
export function renderAuth(path: string, backend: SessionBackend, extra: ReactNode = null) {
  const queryClient = createTestQueryClient();
  const routes: RouteObject[] = [
    {
      element: (
        <SessionProvider backend={backend}>
          <WhereAmI />
          {extra}
          <RouterOutlet />
        </SessionProvider>
      ),
      children: [...signInRoutes, { element: <RequireSession />, children: [{ path: '*', element: <Console /> }] }],
    },
  ];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <TestProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { ...result, router, queryClient };
}
