import { Button, Group, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT } from '@quire/core';
import { Dialog } from '../../../components/ui/dialog.js';

export interface RevokeTokenDialogProps {
  /** The token's last four characters, or null when closed. */
  hint: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asked before a SCIM token is revoked: the provider using it stops provisioning at once. */
export function RevokeTokenDialog({ hint, onConfirm, onClose }: RevokeTokenDialogProps) {
  return (
    <Dialog opened={hint !== null} onClose={onClose} title="Revoke SCIM token" size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">
          The identity provider that uses the token ending in {hint} will no longer be able to create, update or remove teachers, from now on.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm}>
            Revoke
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
