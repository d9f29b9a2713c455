import { Button, Center, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { FullPageLoader } from '../components/ui/full-page-loader.js';
import { consoleConfigQueryOptions } from '../lib/console-config.js';
import { SessionProvider } from '../lib/session/index.js';
import { ChatSupport } from './chat-support.js';

/**
 * The root of every route except /unsupported: loads the server's console configuration once
 * (so `useConsoleConfig()` never waits below here), then provides the session.
 */
export function ConsoleRoot() {
  const config = useQuery(consoleConfigQueryOptions);
  if (config.isPending) return <FullPageLoader />;
  if (config.isError) {
    return (
      <Center mih="100vh" component="main">
        <Stack align="center" gap="sm">
          <Text role="alert">The console could not be loaded. Please check your connection and try again.</Text>
          <Button onClick={() => void config.refetch()} loading={config.isFetching}>
            Try again
          </Button>
        </Stack>
      </Center>
    );
  }
  return (
    <SessionProvider>
      <ChatSupport />
      <Outlet />
    </SessionProvider>
  );
}
