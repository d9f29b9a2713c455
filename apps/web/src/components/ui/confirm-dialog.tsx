import { Button, Group, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT } from '@quire/core';
import type { ReactNode } from 'react';
import { Dialog } from './dialog.js';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  /** What confirming does, said to the person before they choose. */
  children: ReactNode;
  /** The confirming button's text (Confirm, Revoke, Remove, Turn off…). */
  confirmLabel: string;
  /** Red for an action that takes something away. */
  destructive?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A question asked before an action: Cancel (focused first, so Enter does not confirm by accident) closes,
 * the confirming button runs the action; the caller closes the dialog.
 */
export function ConfirmDialog({ opened, title, children, confirmLabel, destructive = false, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog opened={opened} onClose={onClose} title={title} size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">{children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color={destructive ? 'red' : undefined} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
