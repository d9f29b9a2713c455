import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT } from '@quire/core';
import { Dialog } from '../../../components/ui/dialog.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import type { AdminEntry } from '@quire/core';
import type { ProviderStaff } from '../model/admin-emails.js';

export interface RemoveAdminsDialogProps {
  admins: AdminEntry[];
  organisationName: string;
  staff?: ProviderStaff;
  busy: boolean;
  /** Removes the admins with the action's idempotency key; a second click while it runs does nothing. */
  onConfirm: (idempotencyKey: string) => Promise<unknown>;
  onClose: () => void;
}

/** The confirmation before admins are removed; removing yourself says you lose access. */
export function RemoveAdminsDialog({ admins, organisationName, staff, busy, onConfirm, onClose }: RemoveAdminsDialogProps) {
  const includesYou = admins.some((a) => a.isYou);
  const includesStaff = Boolean(staff && admins.some((a) => staff.is(a.email)));
  const title = admins.length === 1 ? 'Remove admin' : 'Remove admins';
  const once = useSubmitOnce();
  const working = busy || once.busy;
  return (
    <Dialog opened onClose={working ? () => undefined : onClose} title={title} size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">
          {admins.length === 1
            ? `Remove ${admins[0]?.email ?? ''} as an admin of ${organisationName}?`
            : `Remove these ${admins.length} admins of ${organisationName}?`}
        </Text>
        {admins.length > 1 ? (
          <List size="sm" aria-label="Admins to remove">
            {admins.map((a) => (
              <List.Item key={a.email}>{a.email}</List.Item>
            ))}
          </List>
        ) : null}
        {includesStaff && staff ? (
          <Alert color="yellow" variant="light">
            {staff.removalNote}
          </Alert>
        ) : null}
        {includesYou ? (
          <Alert color="red" variant="light">
            You are removing yourself: you will no longer be able to manage this organisation.
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={working}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void once.submit(onConfirm).catch(() => undefined)} loading={working} data-autofocus>
            {title}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
