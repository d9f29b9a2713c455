import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';

export interface RevokeTokenDialogProps {
  /** The token's last four characters, or null when closed. */
  hint: string | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asked before a SCIM token is revoked: the provider using it stops provisioning at once. */
export function RevokeTokenDialog({ hint, onConfirm, onClose }: RevokeTokenDialogProps) {
  return (
    <ConfirmDialog opened={hint !== null} onClose={onClose} onConfirm={onConfirm} title="Revoke SCIM token" confirmLabel="Revoke" destructive>
      The identity provider that uses the token ending in {hint} will no longer be able to create, update or remove teachers, from now on.
    </ConfirmDialog>
  );
}
