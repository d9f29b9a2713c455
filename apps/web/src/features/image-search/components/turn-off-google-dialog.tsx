import { ConfirmDialog } from '../../../components/ui/confirm-dialog.js';

export interface TurnOffGoogleDialogProps {
  opened: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Switching Google image search off asks first (spec §4 "Image search"). */
export function TurnOffGoogleDialog({ opened, onConfirm, onClose }: TurnOffGoogleDialogProps) {
  return (
    <ConfirmDialog opened={opened} onClose={onClose} onConfirm={onConfirm} title="Turn off Google image search?" confirmLabel="Turn off">
      Teachers and students will only find moderated safe images (Pixabay) when they search for images. You can turn Google image search back on at
      any time.
    </ConfirmDialog>
  );
}
