import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

/** A form's error banner (spec §8: errors show as an error message). */
export function FormError({ message, children }: { message: string | null | undefined; children?: ReactNode }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" styles={{ message: { whiteSpace: 'pre-line' } }}>
      {message}
      {children}
    </Alert>
  );
}
