import { Button, Group, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT, type AdminEntry } from '@quire/core';
import { Dialog } from '../../../components/ui/dialog.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';

export interface ResetTwoStepDialogProps {
  admin: AdminEntry;
  busy: boolean;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/** The confirmation before another admin's 2-step verification is reset (a lost phone); a second click does nothing. */
export function ResetTwoStepDialog({ admin, busy, onConfirm, onClose }: ResetTwoStepDialogProps) {
  const once = useSubmitOnce();
  const working = busy || once.busy;
  return (
    <Dialog opened onClose={working ? () => undefined : onClose} title="Reset 2-step verification" size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">Reset 2-step verification for {admin.email}?</Text>
        <Text size="sm">
          Their authenticator app, recovery codes and trusted devices are removed and they are signed out everywhere. They sign in with their
          password alone, and set up 2-step verification again (at once, if your organisation requires it). They will get an e-mail about it.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={working} data-autofocus>
            Cancel
          </Button>
          <Button color="red" onClick={() => void once.submit(onConfirm).catch(() => undefined)} loading={working}>
            Reset
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
