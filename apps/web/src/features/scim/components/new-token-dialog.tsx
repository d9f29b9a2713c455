import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT, type GeneratedScimToken } from '@quire/core';
import { CopyValue } from '../../../components/ui/copy-value.js';
import { Dialog } from '../../../components/ui/dialog.js';

export interface NewTokenDialogProps {
  /** The token just generated, or null when closed. */
  token: GeneratedScimToken | null;
  onClose: () => void;
}

/**
 * The token just generated, shown once. A dialog rather than a notice on the page: it has to be copied before the
 * admin goes on, and closing it gives focus back to Generate token.
 */
export function NewTokenDialog({ token, onClose }: NewTokenDialogProps) {
  return (
    <Dialog opened={token !== null} onClose={onClose} title="New SCIM token" size={MODAL_WIDTH_DEFAULT} closeOnClickOutside={false}>
      <Stack>
        <Text size="sm" fw={600}>
          Copy this token now: it will not be shown again
        </Text>
        <Group gap={4} wrap="nowrap">
          <Code style={{ wordBreak: 'break-all' }}>
            {token?.token}
          </Code>
          {token ? <CopyValue value={token.token} label="token" /> : null}
        </Group>
        <Text size="sm">Paste it into your identity provider as the bearer token (Secret Token in Entra ID, Authorization header in Okta).</Text>
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            I have copied the token
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
