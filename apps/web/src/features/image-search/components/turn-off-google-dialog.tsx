import { Button, Group, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT } from '@quire/core';
import { Dialog } from '../../../components/ui/dialog.js';

export interface TurnOffGoogleDialogProps {
  opened: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Switching Google image search off asks first (spec §4 "Image search"). */
export function TurnOffGoogleDialog({ opened, onConfirm, onClose }: TurnOffGoogleDialogProps) {
  return (
    <Dialog opened={opened} onClose={onClose} title="Turn off Google image search?" size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">
          Teachers and students will only find moderated safe images (Pixabay) when they search for images. You can turn Google image search back on
          at any time.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button onClick={onConfirm}>Turn off</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
