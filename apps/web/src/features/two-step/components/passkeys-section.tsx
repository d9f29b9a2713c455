import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { MODAL_WIDTH_DEFAULT, PASSKEY_NAME_MAX, type Passkey, type PasskeyAdded, type TwoStepStatus } from '@quire/core';
import { useState, type FormEvent } from 'react';
import { Dialog } from '../../../components/ui/dialog.js';
import { userFacingMessage } from '../../../lib/api/index.js';
import { notifyInfo } from '../../../lib/notify.js';
import { PasskeyCancelled, passkeysSupported } from '../../../lib/webauthn.js';
import { addPasskey, removePasskey, renamePasskey } from '../api/passkeys.js';
import { FormError } from '../../../components/ui/form-error.js';
import { useDialogAction } from './use-dialog-action.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

type Asking = { kind: 'add' } | { kind: 'rename'; passkey: Passkey } | { kind: 'remove'; passkey: Passkey } | null;

export interface PasskeysSectionProps {
  status: TwoStepStatus;
  /** A passkey was added, renamed or removed: the page reloads the status. */
  onChanged: () => void;
  /** The first passkey turned 2-step verification on: the page shows the recovery codes. */
  onTurnedOn: (recoveryCodes: string[]) => void;
  /** Removing the only second factor is turning 2-step verification off (the page asks for the password or a code). */
  onTurnOff: () => void;
}

/**
 * The Security page's passkeys: each with its name, when it was added and last used, 'Rename' and 'Remove'; 'Add a
 * passkey' names it first, then the browser asks for the device's screen lock, fingerprint or face.
 */
export function PasskeysSection({ status, onChanged, onTurnedOn, onTurnOff }: PasskeysSectionProps) {
  const [asking, setAsking] = useState<Asking>(null);
  const supported = passkeysSupported();
  const onlyFactor = status.authenticatorAddedAt === null && status.passkeys.length === 1;

  const added = (result: PasskeyAdded) => {
    setAsking(null);
    if (result.recoveryCodes) onTurnedOn(result.recoveryCodes);
    else notifyInfo(`Passkey “${result.passkey.name}” added.`);
    onChanged();
  };

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="passkeys-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="passkeys-heading">
          Passkeys
        </Title>
        <Text>
          A passkey uses your device’s screen lock, fingerprint or face. It can be your second step after your password, or sign you in on its own
          without your password.
        </Text>
        {status.passkeys.length ? (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your passkeys">
            {status.passkeys.map((passkey) => (
              <li key={passkey.id}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <div>
                    <Text fw={600}>{passkey.name}</Text>
                    <Text size="sm" c="dimmed">
                      Added on {dateFormat.format(new Date(passkey.createdAt))} ·{' '}
                      {passkey.lastUsedAt ? `last used on ${dateFormat.format(new Date(passkey.lastUsedAt))}` : 'not used yet'}
                    </Text>
                  </div>
                  <Group gap="xs">
                    <Button variant="default" size="xs" aria-label={`Rename ${passkey.name}`} onClick={() => setAsking({ kind: 'rename', passkey })}>
                      Rename
                    </Button>
                    <Button
                      variant="default"
                      color="red"
                      size="xs"
                      aria-label={`Remove ${passkey.name}`}
                      disabled={onlyFactor && status.requiredBy !== null}
                      onClick={() => (onlyFactor ? onTurnOff() : setAsking({ kind: 'remove', passkey }))}
                    >
                      Remove
                    </Button>
                  </Group>
                </Group>
              </li>
            ))}
          </Stack>
        ) : (
          <Text c="dimmed">No passkeys yet.</Text>
        )}
        {onlyFactor && status.requiredBy !== null ? (
          <Text size="sm" c="dimmed">
            This passkey is your only second step, and 2-step verification is required, so it cannot be removed. Add another passkey or an
            authenticator app first.
          </Text>
        ) : null}
        {supported ? (
          <Button variant="default" style={{ alignSelf: 'flex-start' }} onClick={() => setAsking({ kind: 'add' })}>
            Add a passkey
          </Button>
        ) : (
          <Text size="sm" c="dimmed">
            This browser cannot make passkeys. Open this page in a current browser on a device with a screen lock to add one.
          </Text>
        )}
      </Stack>
      <Dialog opened={asking?.kind === 'add'} onClose={() => setAsking(null)} title="Add a passkey" size={MODAL_WIDTH_DEFAULT}>
        {asking?.kind === 'add' ? (
          <NameForm
            explanation="Name it after the device or key that keeps it, so you can tell your passkeys apart. Your browser then asks you to confirm with your screen lock, fingerprint or face."
            initialName=""
            confirmLabel="Continue"
            onConfirm={async (name) => added(await addPasskey(name))}
            onClose={() => setAsking(null)}
          />
        ) : null}
      </Dialog>
      <Dialog opened={asking?.kind === 'rename'} onClose={() => setAsking(null)} title="Rename passkey" size={MODAL_WIDTH_DEFAULT}>
        {asking?.kind === 'rename' ? (
          <NameForm
            initialName={asking.passkey.name}
            confirmLabel="Save"
            onConfirm={async (name) => {
              await renamePasskey(asking.passkey.id, name);
              setAsking(null);
              onChanged();
            }}
            onClose={() => setAsking(null)}
          />
        ) : null}
      </Dialog>
      <Dialog opened={asking?.kind === 'remove'} onClose={() => setAsking(null)} title="Remove passkey" size={MODAL_WIDTH_DEFAULT}>
        {asking?.kind === 'remove' ? (
          <ConfirmRemove
            passkey={asking.passkey}
            onConfirm={async () => {
              await removePasskey(asking.passkey.id);
              setAsking(null);
              notifyInfo(`Passkey “${asking.passkey.name}” removed.`);
              onChanged();
            }}
            onClose={() => setAsking(null)}
          />
        ) : null}
      </Dialog>
    </Paper>
  );
}

function failureText(failure: unknown): string {
  if (failure instanceof PasskeyCancelled) return failure.message;
  return userFacingMessage(failure) ?? 'Something went wrong, please try again.';
}

function NameForm(props: { explanation?: string; initialName: string; confirmLabel: string; onConfirm: (name: string) => Promise<void>; onClose: () => void }) {
  const [name, setName] = useState(props.initialName);
  const [attempted, setAttempted] = useState(false);
  const { busy, error, setError, run } = useDialogAction(failureText);
  const fieldError = name.trim() === '' ? 'Enter a name for the passkey.' : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setError(null);
    if (fieldError) return;
    // A second press while the browser's prompt is open asks nothing more.
    await run(() => props.onConfirm(name.trim()));
  };

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      <Stack gap="md">
        {props.explanation ? <Text size="sm">{props.explanation}</Text> : null}
        <FormError message={error} />
        <TextInput
          label="Passkey name"
          description="For example: Work laptop, or Phone"
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={attempted ? fieldError : undefined}
          maxLength={PASSKEY_NAME_MAX}
          data-autofocus
          autoFocus
          required
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ConfirmRemove({ passkey, onConfirm, onClose }: { passkey: Passkey; onConfirm: () => Promise<void>; onClose: () => void }) {
  const { busy, error, setError, run } = useDialogAction(failureText);
  const remove = async () => {
    setError(null);
    await run(onConfirm);
  };
  return (
    <Stack gap="md">
      <Text size="sm">“{passkey.name}” will no longer sign you in. You can still use your other ways of 2-step verification.</Text>
      <FormError message={error} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-autofocus>
          Cancel
        </Button>
        <Button color="red" loading={busy} onClick={() => void remove()}>
          Remove
        </Button>
      </Group>
    </Stack>
  );
}
