import { ActionIcon, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT, type GeneratedScimToken } from '@quire/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { Dialog } from '../../../components/ui/dialog.js';

/** Copies a value, saying so on the button for two seconds. */
export function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : `Copy ${label}`} withArrow>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={copied ? `${label} copied` : `Copy ${label}`}>
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

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
