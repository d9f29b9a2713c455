import { Center, Loader } from '@mantine/core';

/** A screen's wait for its data, in the place the data will show; `label` names what is loading. */
export function SectionLoader({ label }: { label: string }) {
  return (
    <Center py="xl" role="status">
      <Loader aria-label={label} />
    </Center>
  );
}
