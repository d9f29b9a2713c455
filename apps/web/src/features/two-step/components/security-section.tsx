import { Paper, Stack, Title, type MantineSize } from '@mantine/core';
import type { ReactNode } from 'react';

/** A card of the security screens: a section named by its heading. */
export function SecuritySection({ headingId, title, maw, children }: { headingId: string; title: string; maw?: number | MantineSize; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={headingId} maw={maw}>
      <Stack gap="md">
        <Title order={2} size="h3" id={headingId}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
