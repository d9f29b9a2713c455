import { Center, Loader } from '@mantine/core';

/** The Teachers screen's wait: the organisation, then the list, then the table being drawn (teachers-table.tsx). */
export function TeachersLoading() {
  return (
    <Center py="xl" role="status">
      <Loader aria-label="Loading teachers" />
    </Center>
  );
}
