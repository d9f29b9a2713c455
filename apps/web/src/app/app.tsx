import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers.js';
import { createConsoleRouter } from './router.js';

/** The whole console. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(createConsoleRouter);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
