import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useConsoleConfig } from '../../../lib/console-config.js';

/** The frame of every sign-in screen: the product's name, the screen's title, its content. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const { productName } = useConsoleConfig();
  return (
    <Center component="main" mih="100vh" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={440}>
        <Stack gap="md">
          <Text fw={700} size="lg" c="dark">
            {productName}
          </Text>
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
