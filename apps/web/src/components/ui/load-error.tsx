import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

export interface LoadErrorProps {
  /** What failed, in the spec's words where it has them, e.g. 'Something went wrong loading the licenses'. */
  title: string;
  /** More detail (the server's message), when there is any. */
  children?: ReactNode;
  /** Loads again; usually a query's `refetch`. */
  onRetry: () => Promise<unknown>;
  /** The Retry button's accessible name where several errors share a screen ('Retry Sessions'); it starts with 'Retry'. */
  retryLabel?: string;
}

/**
 * A screen's or panel's loading error, with Retry: a failure that may be passing (the
 * network, a restart) need not cost the admin a reload of the whole console.
 */
export function LoadError({ title, children, onRetry, retryLabel }: LoadErrorProps) {
  const [retrying, setRetrying] = useState(false);
  const retry = async () => {
    setRetrying(true);
    try {
      await onRetry();
    } finally {
      setRetrying(false);
    }
  };
  return (
    <Alert variant="light" color="red" role="alert" title={title}>
      <Group justify="space-between" gap="sm">
        {children ? <Text size="sm">{children}</Text> : <span />}
        <Button size="xs" variant="default" leftSection={<IconRefresh size={16} aria-hidden />} loading={retrying} onClick={() => void retry()} aria-label={retryLabel}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
