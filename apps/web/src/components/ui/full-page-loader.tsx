import { Center, Loader } from '@mantine/core';

/** A centred spinner for whole-screen waits (configuration, session, lazy screens). */
export function FullPageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
