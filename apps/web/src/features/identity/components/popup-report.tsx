import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { reportPopupOutcome, type PopupOutcome } from '../../../lib/session/index.js';

/** What the provider pop-up shows once sent back to the console: it reports to its opener and closes. */
export function PopupReport({ outcome }: { outcome: PopupOutcome }) {
  const report = JSON.stringify(outcome);
  useEffect(() => reportPopupOutcome(JSON.parse(report) as PopupOutcome), [report]);
  return (
    <Center component="main" mih="100vh">
      <Stack align="center" gap="sm" role="status">
        <Loader aria-label="Signing you in" />
        <Text>You can close this window.</Text>
      </Stack>
    </Center>
  );
}
