import { Button, Group, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT } from '@quire/core';
import { Dialog } from '../../../components/ui/dialog.js';

export interface RevokeCredentialsDialogProps {
  opened: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asked before revoking (spec §4 "LTI credentials"): Confirm runs the revoke and closes; Cancel closes. */
export function RevokeCredentialsDialog({ opened, onConfirm, onClose }: RevokeCredentialsDialogProps) {
  return (
    <Dialog opened={opened} onClose={onClose} title="Revoke LTI credentials" size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">
          Learning platforms that use this key and secret will no longer be able to launch, from now on. You can generate new credentials
          afterwards.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
