import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConsoleConfig } from '../lib/console-config.js';
import { fakeFetch, type FakeAnswer } from '../test/fake-fetch.js';
import { TestProviders, testConsoleConfig } from '../test/render.js';
import { ConsoleRoot } from './console-root.js';

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

afterEach(() => vi.unstubAllGlobals());

describe('ConsoleRoot', () => {
  it('loads the console configuration once, then shows the screens', async () => {
    const server = fakeFetch({ 'GET /api/console-config': { body: { ...testConsoleConfig, productName: 'Bookshelf' } } });
    renderRoot();
    expect(await screen.findByText('Product: Bookshelf')).toBeInTheDocument();
    const configCalls = server.requests.filter((r) => r.url === '/api/console-config');
    expect(configCalls).toHaveLength(1);
  });

  it('says so when the configuration cannot be loaded, and tries again on request', async () => {
    let answer: FakeAnswer = { status: 500, body: { code: 'INTERNAL', message: 'down' } };
    fakeFetch({ 'GET /api/console-config': () => answer });
    renderRoot();
    expect(await screen.findByRole('alert')).toHaveTextContent('The console could not be loaded');
    answer = { body: testConsoleConfig };
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Product: Quire')).toBeInTheDocument();
  });
});
