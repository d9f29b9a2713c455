import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT, type TwoStepProof } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { userFacingMessage } from '../../../lib/api/index.js';
import { FormError } from '../../../components/ui/form-error.js';
import { useDialogAction } from './use-dialog-action.js';

export interface ProofDialogProps {
  opened: boolean;
  title: string;
  /** What happens, said before the person proves it is them. */
  explanation: string;
  confirmLabel: string;
  danger?: boolean;
  /** False for an account that signs in with Google or Office 365 only: it proves itself with a code. */
  hasPassword: boolean;
  /** The code that proves it besides the password: from the authenticator app (default), or a recovery code (passkeys only). */
  codeKind?: 'app' | 'recovery';
  /** The change; a thrown error shows in the dialog, which stays open. */
  onConfirm: (proof: TwoStepProof) => Promise<void>;
  onClose: () => void;
}

/**
 * Asks for the password or a current code before a change that weakens or reissues the second step (turning it off,
 * new recovery codes). Focus goes back to the button that opened it (the console's Dialog).
 */
export function ProofDialog({ opened, onClose, ...props }: ProofDialogProps) {
  return (
    <Dialog opened={opened} onClose={onClose} title={props.title} size={MODAL_WIDTH_DEFAULT}>
      {/* A fresh form each time it opens: nothing typed survives closing it. */}
      {opened ? <ProofForm {...props} onClose={onClose} /> : null}
    </Dialog>
  );
}

function ProofForm({ explanation, confirmLabel, danger, hasPassword, codeKind = 'app', onConfirm, onClose }: Omit<ProofDialogProps, 'opened' | 'title'>) {
  const [withCode, setWithCode] = useState(!hasPassword);
  const [value, setValue] = useState('');
  const [attempted, setAttempted] = useState(false);
  const { busy, error, setError, run } = useDialogAction((failure) => userFacingMessage(failure) ?? 'Something went wrong, please try again.');

  const fieldError = value.trim() === '' ? (withCode ? (codeKind === 'app' ? 'Enter the 6-digit code from your authenticator app.' : 'Enter one of your recovery codes.') : 'Enter your password.') : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setError(null);
    if (fieldError) return;
    await run(
      () => onConfirm(withCode ? { code: value } : { password: value }),
      () => setValue(''),
    );
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="md">
        <Text size="sm">{explanation}</Text>
        <FormError message={error} />
        {withCode ? (
          <TextInput
            key="code"
            label={codeKind === 'app' ? 'Code from your authenticator app' : 'Recovery code'}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={attempted ? fieldError : undefined}
            inputMode={codeKind === 'app' ? 'numeric' : 'text'}
            autoComplete={codeKind === 'app' ? 'one-time-code' : 'off'}
            maxLength={codeKind === 'app' ? 7 : 11}
            data-autofocus
            autoFocus
            required
          />
        ) : (
          <PasswordInput
            key="password"
            label="Password"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={attempted ? fieldError : undefined}
            autoComplete="current-password"
            data-autofocus
            autoFocus
            required
          />
        )}
        {hasPassword ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="left"
            onClick={() => {
              setWithCode(!withCode);
              setValue('');
              setAttempted(false);
            }}
          >
            {withCode ? 'Use your password instead' : codeKind === 'app' ? 'Use a code from your authenticator app instead' : 'Use a recovery code instead'}
          </Anchor>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" color={danger ? 'red' : undefined} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
