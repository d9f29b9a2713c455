import { screen, waitFor, within } from '@testing-library/react';
import { Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { buildSession, renderRoutes } from '../test/render.js';
import { routes } from './routes.js';

// The configuration and session come from the test providers instead of the server.
vi.mock('./console-root.js', () => ({ ConsoleRoot: () => <Outlet /> }));

const withPortfolios = () =>
  buildSession({
    currentOrganisation: {
      id: 'org-1',
      name: 'Hillside School',
      features: { orgLibraries: false, studentPortfolios: true, visitLibraries: false },
    },
  });

/** The screen's <h1>, inside the main landmark (screens load lazily, so wait for it). */
async function heading(name: string) {
  const h1 = await screen.findByRole('heading', { level: 1, name }, { timeout: 4000 });
  expect(h1.closest('main')).not.toBeNull();
  return h1;
}

describe('console routes', () => {
  it('/ opens the current organisation’s home, the licence dashboard', async () => {
    const { router } = renderRoutes(routes, '/');
    expect(await heading('Licenses')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/org-1');
    await waitFor(() => expect(document.title).toBe('Licenses | Quire'));
  });

  it.each([
    ['/org-1/teachers', 'Teachers'],
    ['/org-1/analytics', 'Analytics'],
    ['/org-1/resources', 'Teacher Resources'],
    ['/org-1/admin', 'Admin'],
    ['/org-1/lms', 'LMS Integration'],
    ['/org-1/provisioning', 'Provisioning (SCIM)'],
    ['/org-1/rostering', 'Rostering'],
    ['/org-1/apps', 'Manage Apps'],
    ['/org-1/image-search', 'Image Search Settings'],
  ])('%s shows the %s screen and names the tab after it', async (path, title) => {
    renderRoutes(routes, path);
    expect(await heading(title)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${title} | Quire`));
  });

  it('/{orgId}/portfolios exists only when the organisation has studentPortfolios', async () => {
    const on = renderRoutes(routes, '/org-1/portfolios', { session: withPortfolios() });
    expect(await heading('Portfolios')).toBeInTheDocument();
    on.unmount();

    const off = renderRoutes(routes, '/org-1/portfolios');
    expect(await heading('Licenses')).toBeInTheDocument();
    expect(off.router.state.location.pathname).toBe('/org-1');
  });

  it.each(['/org-1/no-such-screen', '/org-1/teachers/extra', '/not/a/route'])('%s redirects to / (and so home)', async (path) => {
    const { router } = renderRoutes(routes, path);
    expect(await heading('Licenses')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/org-1');
  });

  it('/unsupported lists the upgrade browsers with download links, with no session needed', async () => {
    renderRoutes(routes, '/unsupported', { session: buildSession({ status: 'signed-out', user: null, currentOrganisation: null }) });
    expect(await screen.findByRole('heading', { level: 1, name: "Your browser isn't supported" })).toBeInTheDocument();
    const links = within(screen.getByRole('list', { name: 'Supported browsers' })).getAllByRole('link');
    expect(links.map((a) => a.textContent)).toEqual(['Chrome latest', 'Safari 8+', 'Internet Explorer 11', 'Edge latest']);
    for (const link of links) expect(link.getAttribute('href')).toMatch(/^https:\/\//);
    expect(document.title).toBe("Your browser isn't supported");
  });

  it('a signed-out visitor to a console page is sent to /sign-in', async () => {
    // Only the redirect matters here; the sign-in screen itself needs the real session provider.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { router } = renderRoutes(routes, '/org-1/teachers', {
      session: buildSession({ status: 'signed-out', user: null, organisations: [], currentOrganisation: null }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'));
    quiet.mockRestore();
  });
});
