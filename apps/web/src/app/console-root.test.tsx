import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConsoleConfig } from '../lib/console-config.js';
import { TestProviders, testConsoleConfig } from '../test/render.js';
import { ConsoleRoot } from './console-root.js';

const fetchMock = vi.fn<typeof fetch>();

function ProductName() {
  return <p>Product: {useConsoleConfig().productName}</p>;
}

function renderRoot() {
  // An empty cache: the configuration must come from GET {api}/console-config.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ element: <ConsoleRoot />, children: [{ path: '/', element: <ProductName /> }] }]);
  render(
    <TestProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => vi.unstubAllGlobals());

describe('ConsoleRoot', () => {
  it('loads the console configuration once, then shows the screens', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ ...testConsoleConfig, productName: 'Bookshelf' }), { headers: { 'content-type': 'application/json' } }),
    );
    renderRoot();
    expect(await screen.findByText('Product: Bookshelf')).toBeInTheDocument();
    const configCalls = fetchMock.mock.calls.filter(([url]) => String(url) === '/api/console-config');
    expect(configCalls).toHaveLength(1);
  });

  it('says so when the configuration cannot be loaded, and tries again on request', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{"code":"INTERNAL","message":"down"}', { status: 500, headers: { 'content-type': 'application/json' } }));
    renderRoot();
    expect(await screen.findByRole('alert')).toHaveTextContent('The console could not be loaded');
    fetchMock.mockResolvedValue(new Response(JSON.stringify(testConsoleConfig), { headers: { 'content-type': 'application/json' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Product: Quire')).toBeInTheDocument();
  });
});
