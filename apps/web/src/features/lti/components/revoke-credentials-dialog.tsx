import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';

export interface RevokeCredentialsDialogProps {
  opened: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asked before revoking (spec §4 "LTI credentials"): Confirm runs the revoke and closes; Cancel closes. */
export function RevokeCredentialsDialog({ opened, onConfirm, onClose }: RevokeCredentialsDialogProps) {
  return (
    <ConfirmDialog opened={opened} onClose={onClose} onConfirm={onConfirm} title="Revoke LTI credentials" confirmLabel="Confirm" destructive>
      Learning platforms that use this key and secret will no longer be able to launch, from now on. You can generate new credentials afterwards.
    </ConfirmDialog>
  );
}
