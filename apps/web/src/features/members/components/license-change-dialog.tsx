import { Button, Group, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT, type OrganisationLicense } from '@quire/core';
import { Dialog } from '../../../components/ui/dialog.js';
import { useSubmitOnce } from '../../../components/ui/use-submit-once.js';
import type { Member } from '@quire/core';

export interface LicenseChangeDialogProps {
  /** The licence to assign, or null to remove the teachers' licences. */
  license: OrganisationLicense | null;
  members: Member[];
  /** 'Select all n teachers': the count of every matching teacher, shown instead of the rows. */
  total?: number;
  busy: boolean;
  /** Runs the change with the action's idempotency key; a second click while it runs does nothing. */
  onConfirm: (idempotencyKey: string) => Promise<unknown>;
  onClose: () => void;
}

const teachersText = (members: Member[], total?: number) =>
  total !== undefined ? (total === 1 ? '1 teacher' : `${total} teachers`) : members.length === 1 ? (members[0]?.email ?? '1 teacher') : `${members.length} teachers`;

/** The confirmation before licences are assigned or removed. */
export function LicenseChangeDialog({ license, members, total, busy, onConfirm, onClose }: LicenseChangeDialogProps) {
  const title = license ? 'Assign license' : 'Remove license';
  const once = useSubmitOnce();
  return (
    <Dialog opened onClose={busy ? () => undefined : onClose} title={title} size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">
          {license
            ? `Assign the ${license.name} license to ${teachersText(members, total)}?`
            : `Remove the license from ${teachersText(members, total)}?`}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color={license ? 'quire' : 'red'} onClick={() => void once.submit(onConfirm).catch(() => undefined)} loading={busy || once.busy} data-autofocus>
            {license ? 'Assign' : 'Remove'}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
