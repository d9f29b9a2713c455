import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { cssVariablesResolver, theme } from '../theme/theme.js';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/** Everything every screen relies on: data cache, theme, notifications. */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Notifications position="top-right" limit={4} />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
