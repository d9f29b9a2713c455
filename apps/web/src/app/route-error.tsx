import { Button, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a screen fails to render: says so plainly, offers a reload, logs the cause. */
export function RouteError() {
  const error = useRouteError();
  console.error('Screen error', error);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <Stack gap="sm" p="xl" role="alert">
      <Title order={1}>Something went wrong</Title>
      <Text>This page could not be shown. Reloading usually helps.{detail ? ` (${detail})` : ''}</Text>
      <div>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </div>
    </Stack>
  );
}
