import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { useNotificationsWanted } from '../lib/notifications-wanted.js';
import { cssVariablesResolver, theme } from '../theme/theme.js';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

/**
 * The notifications' container (with its transitions) is outside the first download, and loads only once a screen
 * that can notify has loaded (lib/notifications-wanted.ts): a notification shown before it arrives waits in the
 * notifications store and appears when it mounts.
 */
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/** Everything every screen relies on: data cache, theme, notifications. */
export function AppProviders({ queryClient, children }: AppProvidersProps) {
  const notificationsWanted = useNotificationsWanted();
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        {notificationsWanted && (
          <Suspense fallback={null}>
            <Notifications position="top-right" limit={4} />
          </Suspense>
        )}
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
