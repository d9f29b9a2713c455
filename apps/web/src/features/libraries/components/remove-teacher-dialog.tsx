import { Button, Group, List, Stack, Text } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT } from '@quire/core';
import { useState } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { notifyError, notifyInfo } from '../../../lib/notify.js';
import { useRevokeMembership } from '../api/revoke-membership.js';
import { revokeErrorText } from '../model/library-errors.js';
import { removedText } from '../model/transfer-choices.js';
import type { TeacherRef } from '../model/teacher-ref.js';
import { TransferWizard } from './transfer-wizard.js';
import { useLibraryOrganisation } from '../model/library-organisation.js';

export interface RemoveTeacherDialogProps {
  /** The teachers to remove (the row's one, or the bulk selection). */
  teachers: TeacherRef[];
  onClose: () => void;
  /** Teachers were removed: the caller reloads its lists (they move to Inactive). */
  onDone?: (removedIds: string[]) => void;
}

/** Pending teachers never signed up: they own nothing, so removing them is one confirmation. */
function RemovePendingDialog({ teachers, onClose, onDone }: RemoveTeacherDialogProps) {
  const orgId = useLibraryOrganisation().id;
  const [busy, setBusy] = useState(false);
  const revokeMembership = useRevokeMembership(orgId);

  const remove = async () => {
    setBusy(true);
    try {
      const removed = await revokeMembership.mutateAsync({ memberIds: teachers.map((t) => t.id) });
      notifyInfo(removedText(removed.length));
      onDone?.(removed);
      onClose();
    } catch (error) {
      notifyError(revokeErrorText(error));
      setBusy(false);
    }
  };

  return (
    <Dialog opened onClose={busy ? () => undefined : onClose} title="Remove teacher" size={MODAL_WIDTH_DEFAULT}>
      <Stack>
        <Text size="sm">
          {teachers.length === 1 ? `${teachers[0]?.email ?? ''} has` : `These ${teachers.length} teachers have`} not signed up yet.
          Removing them moves them to Inactive and frees any license.
        </Text>
        {teachers.length > 1 ? (
          <List size="sm" aria-label="Teachers to remove">
            {teachers.map((t) => (
              <List.Item key={t.id}>{t.email}</List.Item>
            ))}
          </List>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void remove()} loading={busy} data-autofocus>
            Remove teacher
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}

/**
 * 'Remove teacher' (row menu and bulk action). Pending teachers are simply removed; teachers who signed
 * up go through the teacher delete dialog: their libraries are moved or archived, then Delete account.
 */
export function RemoveTeacherDialog({ teachers, onClose, onDone }: RemoveTeacherDialogProps) {
  if (teachers.every((t) => t.pending)) return <RemovePendingDialog teachers={teachers} onClose={onClose} onDone={onDone} />;
  return <TransferWizard teachers={teachers} mode="delete" onClose={onClose} onDone={(ids) => onDone?.(ids ?? teachers.map((t) => t.id))} />;
}

/** The Manage Teacher Libraries wizard for one teacher. */
export function ManageLibrariesWizard({ teacher, onClose, onDone }: { teacher: TeacherRef; onClose: () => void; onDone?: () => void }) {
  return <TransferWizard teachers={[teacher]} mode="manage" onClose={onClose} onDone={onDone} />;
}
