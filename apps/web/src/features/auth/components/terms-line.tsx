import { Text } from '@mantine/core';

/** The terms-of-service agreement line (spec §2), e.g. "By signing in, you agree to …". */
export function TermsLine({ action }: { action: string }) {
  return (
    <Text size="sm" c="dimmed">
      By {action}, you agree to our Terms of Service and Privacy Policy.
    </Text>
  );
}
